import { ApiError, NetworkError } from './api-client.js';
import type { Translate } from './i18n/index.js';

/**
 * The kiosk's own words for a failed request. The API's messages are written
 * for developers, in English; a customer sees what happened in their language.
 * The server's message stays in the console for staff.
 */
export function errorText(t: Translate, err: unknown): string {
  console.error('request failed', err);
  if (err instanceof ApiError) {
    if (err.status === 401 || err.status === 403) return t('errorKey');
    if (err.status === 404) return t('errorNotFound');
    if (err.status >= 500) return t('errorServer');
    return t('errorRefused');
  }
  if (err instanceof NetworkError) return t('errorNetwork');
  return t('errorServer');
}
