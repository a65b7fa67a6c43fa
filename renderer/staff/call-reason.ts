import { CallError } from './api.js';
import type { StaffTranslate } from './texts.js';

/**
 * Why a call failed, in the page's language. The server's own words are
 * English for integrators; staff read the kind of refusal instead, and the
 * technical text stays in the browser's console for whoever supports them.
 */
export function reasonText(t: StaffTranslate, error: unknown, about: 'image' | 'file' | 'other' = 'other'): string {
  if (!(error instanceof CallError)) return t('reasonServer');
  console.warn(`server answered ${error.status}: ${error.message}`);
  if (error.failure === 'unreachable') return t('reasonUnreachable');
  if (error.failure === 'insecure') return t('reasonInsecure');
  if (error.failure === 'refused') return t('reasonRefused');
  if (error.failure === 'signedOut') return t('reasonSignedOut');
  if (error.status === 404) return t('reasonNotFound');
  if (error.status === 409) return t('reasonConflict');
  if (error.status === 412) return t('reasonChanged');
  if (error.status === 413) return t(about === 'image' ? 'reasonImageTooLarge' : 'reasonTooLarge');
  if (error.status === 400 && about === 'image') return t('reasonImage');
  if (error.status === 400) {
    const fields = Object.keys(error.fieldErrors);
    // Without a field to name, the server's own words are the only precise account of what to change.
    return fields.length > 0 ? t('reasonFields', { fields: fields.join(', ') }) : t('reasonInput', { detail: error.message });
  }
  return t('reasonServer');
}
