import type { StoreLanguage } from '../../shared/languages.js';
import { h, replaceChildren } from '../kiosk/dom.js';
import type { CurrentKey } from '../../shared/api/keys.js';
import { CallError, getData, httpsAddress, keysTravelSafely, signInWith, signOut as endSignIn } from './api.js';
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
 * with a write key (sent once: the server's HttpOnly cookie then stands for it
 * for the working day, in this tab and the next, and the page keeps no key), the day's
 * report, today's card payments with their refunds, the catalog, sync with its parked entries, the receipt printers, the device keys,
 * the suppliers' settlements, the mail queue with the open alerts, the store PCs reporting to this server (head office's), and the PC's disk and database.
 */
const LANGUAGE = 'staff-language';
const POLL_MS = 5000;
/** The report costs the server more than the rest: every sixth round. */
const REPORT_EVERY = 6;

let t = staffTranslator((sessionStorage.getItem(LANGUAGE) as StoreLanguage | null) ?? browserLanguage(navigator.languages));
let problem: StaffTextKey | undefined = keysTravelSafely ? undefined : 'plainHttp';

/** Whether the browser's sign-in cookie stood for a key at the last answer; the page never sees the cookie itself. */
let signedIn = false;
const isSignedIn = () => signedIn;

function failed(error: unknown): void {
  if (error instanceof CallError && error.failure === 'signedOut') return signInEnded();
  if (error instanceof CallError && error.failure === 'refused' && signedIn) return void refusedWhileSignedIn();
  if (error instanceof CallError && error.failure === 'insecure') problem = 'plainHttp';
  else if (error instanceof CallError && error.failure === 'refused') problem = 'keyRefused';
  else if (error instanceof CallError && error.failure === 'unreachable') problem = 'unreachable';
  else problem = undefined;
  renderChrome();
}

function signInEnded(): void {
  if (signedIn) forgetSignIn();
  problem = 'signInEnded';
  renderChrome();
}

/**
 * A refusal while signed in: a read key's sign-in may not write, or the
 * cookie is gone (a sign-out in another tab cleared it), so the request
 * carried nothing. Asking who the page is tells the two apart.
 */
async function refusedWhileSignedIn(): Promise<void> {
  try {
    await getData<CurrentKey>('/keys/current');
  } catch (error) {
    if (error instanceof CallError && (error.failure === 'refused' || error.failure === 'signedOut')) return signInEnded();
    return failed(error);
  }
  problem = 'readKeyRefused';
  renderChrome();
}

const views = { t: () => t, failed };
const printers = createPrintersView({ signedIn: isSignedIn, t: () => t });
const report = createReportView({ ...views, printers: () => printers.list() });
const sync = createSyncView(views);
const payments = createPaymentsView(views);
const fleet = createFleetView(views);
const system = createSystemView({ signedIn: isSignedIn, t: () => t });
const deviceKeys = createKeysView({ t: () => t });
const catalog = createCatalogView(views);
const suppliers = createSuppliersView({ t: () => t });
const mail = createMailView({ t: () => t });
/** A new store is offered at once where a store is chosen: device keys and printers. */
const stores = createStoresView({ t: () => t, changed: () => void Promise.all([deviceKeys.refresh().catch(failed), refreshPrinters()]) });
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
  // A key typed while an answer re-renders the page (the first tab's check of its sign-in, a language change) stays typed.
  const typing = account.querySelector<HTMLInputElement>('#staff-key');
  const focused = typing !== null && typing === document.activeElement;
  const form = signedIn ? signOutButton() : signInForm(typing?.value ?? '');
  replaceChildren(account, form);
  if (focused) form.querySelector<HTMLInputElement>('#staff-key')?.focus();
  staff.hidden = !signedIn;
}

function signInForm(typed: string): HTMLElement {
  const input = h('input', { id: 'staff-key', type: 'password', autocomplete: 'off', required: true, 'aria-describedby': 'staff-key-hint' });
  input.value = typed;
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
  return h('button', { type: 'button', 'data-action': 'sign-out', onclick: () => void signOut() }, t('signOut'));
}

async function signIn(candidate: string): Promise<void> {
  if (!keysTravelSafely) {
    problem = 'plainHttp';
    return renderChrome();
  }
  try {
    await signInWith(candidate);
  } catch (error) {
    problem = error instanceof CallError && error.failure === 'unreachable' ? 'unreachable' : 'keyRefused';
    return renderChrome();
  }
  signedIn = true;
  problem = undefined;
  renderChrome();
  await loadAll();
}

function loadAll(): Promise<unknown> {
  return Promise.all([report.load().catch(failed), payments.refresh(), sync.refresh(), fleet.refresh(), system.refresh(), refreshPrinters(), deviceKeys.refresh().catch(failed), catalog.refresh().catch(failed), stores.refresh().catch(failed), suppliers.refresh().catch(failed), mail.refresh().catch(failed)]);
}

async function signOut(): Promise<void> {
  // A product deletion still waiting for its Undo goes out while the page is signed in.
  await catalog.forget();
  await endSignIn().catch(() => undefined);
  problem = undefined;
  forgetSignIn();
}

/** Back to the sign-in form, with nothing of the signed-in sections left on the page. */
function forgetSignIn(): void {
  signedIn = false;
  void catalog.forget();
  deviceKeys.forget();
  stores.forget();
  suppliers.forget();
  mail.forget();
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

/** A tab opened while the browser's sign-in lasts is signed in already: the cookie goes with this first call. */
async function resumeSignIn(): Promise<void> {
  try {
    await getData<CurrentKey>('/keys/current');
  } catch (error) {
    // Signed in with the form meanwhile: this answer is older than that.
    if (signedIn) return;
    if (error instanceof CallError && error.failure === 'signedOut') problem = 'signInEnded';
    else if (error instanceof CallError && error.failure === 'unreachable') problem = 'unreachable';
    renderChrome();
    return;
  }
  if (signedIn) return;
  signedIn = true;
  renderChrome();
  await loadAll();
}

renderChrome();
void system.refresh();
void refreshPrinters();
if (keysTravelSafely) void resumeSignIn();
let round = 0;
setInterval(() => {
  round += 1;
  void system.refresh();
  void refreshPrinters();
  if (signedIn) void Promise.all([payments.refresh(), sync.refresh(), fleet.refresh(), mail.refresh().catch(failed), round % REPORT_EVERY === 0 ? report.refresh() : undefined]);
}, POLL_MS);
