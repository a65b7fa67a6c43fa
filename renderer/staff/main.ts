import type { StoreLanguage } from '../../shared/languages.js';
import { h, replaceChildren } from '../kiosk/dom.js';
import { CallError, getData, httpsAddress, keysTravelSafely } from './api.js';
import { createCatalogView } from './catalog/catalog-view.js';
import { createFleetView } from './fleet-view.js';
import { createKeysView } from './keys-view.js';
import { createMailView } from './mail/mail-view.js';
import { createPaymentsView } from './payments-view.js';
import { createPrintersView } from './printers-view.js';
import { createReportView } from './report-view.js';
import { createStoresView } from './stores-view.js';
import { createSuppliersView } from './suppliers/suppliers-view.js';
import { createSyncView } from './sync-view.js';
import { createSystemView } from './system-view.js';
import { browserLanguage, LANGUAGE_NAMES, LANGUAGES, staffTranslator, type StaffTextKey } from './texts.js';

/**
 * The staff page at `/status`: the server's health for anyone; after signing in
 * with a write key (kept in sessionStorage, so it ends with the tab), the day's
 * report, today's card payments with their refunds, the catalog, sync with its parked entries, the receipt printers, the device keys,
 * the suppliers' settlements, the mail queue with the open alerts, the store PCs reporting to this server (head office's), and the PC's disk and database.
 */
const KEY = 'staff-write-key';
const LANGUAGE = 'staff-language';
const POLL_MS = 5000;
/** The report costs the server more than the rest: every sixth round. */
const REPORT_EVERY = 6;

let t = staffTranslator((sessionStorage.getItem(LANGUAGE) as StoreLanguage | null) ?? browserLanguage(navigator.languages));
let problem: StaffTextKey | undefined = keysTravelSafely ? undefined : 'plainHttp';

const key = () => sessionStorage.getItem(KEY) ?? undefined;
const signedInKey = () => key() ?? '';

function failed(error: unknown): void {
  if (error instanceof CallError && error.failure === 'insecure') problem = 'plainHttp';
  else if (error instanceof CallError && error.failure === 'refused') problem = error.status === 403 && key() ? 'readKeyRefused' : 'keyRefused';
  else if (error instanceof CallError && error.failure === 'unreachable') problem = 'unreachable';
  else problem = undefined;
  renderChrome();
}

const views = { t: () => t, failed };
const printers = createPrintersView({ key, t: () => t });
const report = createReportView({ ...views, key: signedInKey, printers: () => printers.list() });
const sync = createSyncView({ ...views, key: signedInKey });
const payments = createPaymentsView({ ...views, key: signedInKey });
const fleet = createFleetView({ ...views, key: signedInKey });
const system = createSystemView({ key, t: () => t });
const deviceKeys = createKeysView({ t: () => t, key: signedInKey });
const catalog = createCatalogView({ ...views, key: signedInKey });
const suppliers = createSuppliersView({ t: () => t, key: signedInKey });
const mail = createMailView({ t: () => t, key: signedInKey });
/** A new store is offered at once where a store is chosen: device keys and printers. */
const stores = createStoresView({ t: () => t, key: signedInKey, changed: () => void Promise.all([deviceKeys.refresh().catch(failed), refreshPrinters()]) });
/** The report offers the receipt printer once `GET /printers` lists one. */
const refreshPrinters = () => printers.refresh().then(() => report.printersChanged());

const subtitle = document.getElementById('subtitle') as HTMLElement;
const languageNav = document.getElementById('languages') as HTMLElement;
const account = document.getElementById('account') as HTMLElement;
const message = document.getElementById('message') as HTMLElement;
const staff = document.getElementById('staff') as HTMLElement;
staff.append(report.root, payments.root, catalog.root, stores.root, suppliers.root, mail.root, sync.root, deviceKeys.root, fleet.root);
(document.getElementById('system-slot') as HTMLElement).append(system.root);
(document.getElementById('printers-slot') as HTMLElement).append(printers.root);

function renderChrome(): void {
  document.documentElement.lang = t.language;
  subtitle.textContent = t('subtitle');
  message.textContent = problem ? t(problem, { url: httpsAddress }) : '';
  message.hidden = problem === undefined;
  replaceChildren(
    languageNav,
    LANGUAGES.map((language) =>
      h('button', { type: 'button', lang: language, 'data-language': language, 'aria-pressed': String(language === t.language), onclick: () => setLanguage(language) }, LANGUAGE_NAMES[language]),
    ),
  );
  languageNav.setAttribute('aria-label', t('language'));
  replaceChildren(account, key() ? signOutButton() : signInForm());
  staff.hidden = !key();
}

function signInForm(): HTMLElement {
  const input = h('input', { id: 'staff-key', type: 'password', autocomplete: 'off', required: true, 'aria-describedby': 'staff-key-hint' });
  return h(
    'form',
    { id: 'sign-in', onsubmit: (event: Event) => (event.preventDefault(), void signIn(input.value.trim())) },
    h('h2', {}, t('signInTitle')),
    h('label', { for: 'staff-key' }, t('keyLabel')),
    input,
    h('p', { id: 'staff-key-hint', class: 'hint' }, t('keyHint')),
    h('button', { type: 'submit' }, t('signIn')),
  );
}

function signOutButton(): HTMLElement {
  return h('button', { type: 'button', 'data-action': 'sign-out', onclick: signOut }, t('signOut'));
}

async function signIn(candidate: string): Promise<void> {
  if (!keysTravelSafely) {
    problem = 'plainHttp';
    return renderChrome();
  }
  try {
    await getData('/sync', candidate);
  } catch (error) {
    problem = error instanceof CallError && error.failure === 'unreachable' ? 'unreachable' : 'keyRefused';
    return renderChrome();
  }
  sessionStorage.setItem(KEY, candidate);
  problem = undefined;
  renderChrome();
  await Promise.all([report.load().catch(failed), payments.refresh(), sync.refresh(), fleet.refresh(), system.refresh(), refreshPrinters(), deviceKeys.refresh().catch(failed), catalog.refresh().catch(failed), stores.refresh().catch(failed), suppliers.refresh().catch(failed), mail.refresh().catch(failed)]);
}

function signOut(): void {
  void catalog.forget();
  sessionStorage.removeItem(KEY);
  deviceKeys.forget();
  stores.forget();
  suppliers.forget();
  mail.forget();
  problem = undefined;
  renderChrome();
  void system.refresh();
  void refreshPrinters();
}

function setLanguage(language: StoreLanguage): void {
  sessionStorage.setItem(LANGUAGE, language);
  t = staffTranslator(language);
  renderChrome();
  report.render();
  payments.render();
  sync.render();
  fleet.render();
  system.render();
  printers.render();
  deviceKeys.render();
  catalog.render();
  stores.render();
  suppliers.render();
  mail.render();
}

renderChrome();
void system.refresh();
void refreshPrinters();
if (key()) void report.load().catch(failed).then(() => Promise.all([payments.refresh(), sync.refresh(), fleet.refresh(), deviceKeys.refresh().catch(failed), catalog.refresh().catch(failed), stores.refresh().catch(failed), suppliers.refresh().catch(failed), mail.refresh().catch(failed)]));
let round = 0;
setInterval(() => {
  round += 1;
  void system.refresh();
  void refreshPrinters();
  if (key()) void Promise.all([payments.refresh(), sync.refresh(), fleet.refresh(), mail.refresh().catch(failed), round % REPORT_EVERY === 0 ? report.refresh() : undefined]);
}, POLL_MS);
