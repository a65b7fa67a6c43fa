import type { Product } from '../../shared/api/products.js';
import { reportActivity } from './activity-report.js';
import type { ApiClient, SyncStatus } from './api-client.js';
import { Cart, type CartLine } from './cart.js';
import { CheckoutFlow, type CheckoutHost } from './checkout-flow.js';
import { loadScreenCatalog, type ScreenCatalog } from './catalog-browser.js';
import { replaceChildren } from './dom.js';
import { errorText } from './error-text.js';
import { translator, type Translate } from './i18n/index.js';
import { startIdleTimer } from './idle-timer.js';
import { isOffline, watchSync } from './offline-status.js';
import type { ReceiptSetup } from './receipt-view.js';
import type { SalesJournal } from './sales-journal.js';
import { listenForScans } from './scanner-input.js';
import { amountDialog, chooseDialog, idleDialog, infoDialog, staffCodeDialog } from './screens/dialogs.js';
import { header, type Header } from './screens/header.js';
import { ShopView } from './screens/shop.js';
import { applyTheme } from './screens/theme.js';
import { soundPlayer } from './sound.js';
import { watchTerminals } from './terminal-status.js';
import type { KioskSettings, StoreLanguage } from './store-settings.js';

const SEARCH_LIMIT = 20;

/** The kiosk of one store: owns the cart and decides which screen shows. */
export class KioskApp implements CheckoutHost {
  readonly cart = new Cart();
  t: Translate;
  language: StoreLanguage;
  sync: SyncStatus | undefined;
  terminalReachable = false;
  private catalog: ScreenCatalog | undefined;
  private shop!: ShopView;
  private top!: Header;
  private readonly screenEl = document.createElement('div');
  private readonly overlayEl = document.createElement('div');
  private readonly checkout: CheckoutFlow;
  private searchAbort: AbortController | undefined;
  /** The scans not yet applied, in the order they were made. */
  private scans: Promise<void> = Promise.resolve();
  private readonly playSound = soundPlayer();

  constructor(
    private readonly root: HTMLElement,
    readonly api: ApiClient,
    readonly settings: KioskSettings,
    journal: SalesJournal,
    /** The kiosk's receipt printer and e-receipt address. */
    readonly receiptSetup: ReceiptSetup = {},
  ) {
    this.language = settings.languageMain;
    this.t = translator(this.language, settings.translations);
    this.checkout = new CheckoutFlow(this, journal);
    root.replaceChildren(this.screenEl, this.overlayEl);
    this.buildShop(false);
  }

  /** Sales the journal still holds are recorded first; the shop shows once none is left. */
  start(): void {
    void this.checkout.resume();
    // The staff page lists the printer, and a printer that is off or out of paper, before the first sale.
    const { printer } = this.receiptSetup;
    if (printer?.type === 'network') this.api.checkPrinter(printer.id).catch(() => undefined);
    const idle = startIdleTimer(
      this.settings.deleteCountdown,
      () => this.settings.deleteCountdown > 0 && this.checkout.cancellable() && (!this.cart.isEmpty || this.checkout.active),
      (remaining) => (remaining > 0 ? this.showOverlay(idleDialog(this.t, remaining, () => idle.touch())) : this.closeOverlay('idle')),
      () => this.reset(),
    );
    for (const type of ['pointerdown', 'keydown'] as const) document.addEventListener(type, () => idle.touch(), true);
    listenForScans(document, (code) => {
      idle.touch();
      if (!this.checkout.takeScan(code)) void this.scan(code);
    });
    // Only the badge changes: the shop, and whatever the customer is typing into, stays as it is.
    watchSync(this.api, (status) => {
      const wasOffline = this.offline;
      this.sync = status;
      this.top.setOffline(this.offlineText());
      if (this.offline !== wasOffline) this.checkout.methodsChanged();
    });
    watchTerminals(this.api, (reachable) => {
      this.terminalReachable = reachable;
      this.checkout.methodsChanged();
    });
    loadScreenCatalog(this.api, this.settings.storeId).then(
      (catalog) => {
        this.catalog = catalog;
        this.shop.setCatalog(catalog);
        this.renderCart();
        document.documentElement.dataset.catalog = 'ready';
      },
      (err: unknown) => console.error('loading the products shown on screen failed', err),
    );
  }

  get offline(): boolean {
    return isOffline(this.sync);
  }

  setLanguage(language: StoreLanguage): void {
    this.language = language;
    this.t = translator(language, this.settings.translations);
    document.documentElement.lang = language;
    if (this.checkout.active) this.checkout.render();
    else this.buildShop();
  }

  /** Shows a flow screen in place of the shop. */
  show(screen: HTMLElement): void {
    this.closeOverlay();
    replaceChildren(this.screenEl, screen);
    applyTheme(this.root, this.settings, true);
    reportActivity({ cartEmpty: this.cart.isEmpty, saleInFlight: this.checkout.active });
  }

  /** Shows the shop again, with `note` in its message line. */
  showShop(note = ''): void {
    this.closeOverlay();
    replaceChildren(this.screenEl, this.shop.el);
    this.renderCart();
    if (note) this.shop.showMessage(note);
  }

  /** Cancels the purchase: empty cart, main language, start screen. */
  reset(): void {
    this.cart.clear();
    this.checkout.end();
    this.language = this.settings.languageMain;
    this.t = translator(this.language, this.settings.translations);
    document.documentElement.lang = this.language;
    this.buildShop();
  }

  /**
   * Looks the code up at once, but applies the answers in the order the codes
   * were scanned: two items scanned in quick succession land in the cart in
   * that order, whichever lookup answers first.
   */
  scan(code: string): Promise<void> {
    const lookup = this.api.byBarcode(code).then(
      (matches) => ({ matches }),
      (err: unknown) => ({ err }),
    );
    this.scans = this.scans.then(async () => {
      const answer = await lookup;
      if (!('matches' in answer)) {
        this.shop.showMessage(errorText(this.t, answer.err));
        return;
      }
      const { matches } = answer;
      if (matches.length === 0) this.shop.showMessage(this.t('notFound', { code }));
      else if (matches.length === 1) this.add(matches[0] as Product);
      else this.showOverlay(chooseDialog(this.t, matches, (p) => (this.closeOverlay(), this.add(p)), () => this.closeOverlay()));
    });
    return this.scans;
  }

  /** Puts a product in the cart, refusing what may not be sold and asking for open amounts. */
  add(product: Product): void {
    if (product.saleStop) return this.shop.showMessage(this.t('saleStop', { name: product.name }));
    if (product.deactivated) return this.shop.showMessage(this.t('deactivated', { name: product.name }));
    if (product.scaleLabel) return this.added(this.cart.addScaleLabel(product, product.scaleLabel, new Date().toISOString()));
    if (!product.openInput) return this.added(this.cart.addUnit(product));
    this.showOverlay(amountDialog(this.t, product, (cents) => (this.closeOverlay(), this.added(this.cart.addAmount(product, cents))), () => this.closeOverlay()));
  }

  renderCart(flashKey?: number): void {
    const at = new Date().toISOString();
    this.shop.renderCart(this.cart.totals(at), (id) => this.catalog?.supplierNames.get(id), at, flashKey);
    applyTheme(this.root, this.settings, !this.cart.isEmpty);
    reportActivity({ cartEmpty: this.cart.isEmpty, saleInFlight: this.checkout.active });
  }

  /** Confirms the product in the cart: its line flashes and scrolls into view, with the store's sound. */
  private added(line: CartLine): void {
    this.shop.showMessage('');
    this.renderCart(line.key);
    this.shop.confirmAdded(line.product.name);
    if (this.settings.playSound) this.playSound(this.settings.standardSound);
  }

  private offlineText(): string | undefined {
    return this.offline ? this.t.plural('offline', this.sync?.pending ?? 0) : undefined;
  }

  private async search(q: string): Promise<void> {
    this.searchAbort?.abort();
    if (q.length < 2) return this.shop.showBrowse();
    const abort = (this.searchAbort = new AbortController());
    try {
      const products = await this.api.search(q, this.settings.storeId, SEARCH_LIMIT, abort.signal);
      this.shop.showSearchResults(q, products);
    } catch (err) {
      if (!abort.signal.aborted) this.shop.showMessage(errorText(this.t, err));
    }
  }

  private buildShop(show = true): void {
    this.top = header(this.t, this.settings, this.language, { onLanguage: (l) => this.setLanguage(l), onStaff: () => this.showStaffEntry() });
    this.top.setOffline(this.offlineText());
    this.shop = new ShopView(this.t, this.settings, {
      choose: (p: Product) => this.add(p),
      info: (p: Product) => this.showOverlay(infoDialog(this.t, p, () => (this.closeOverlay(), this.add(p)), () => this.closeOverlay())),
      search: (q) => void this.search(q),
      setQuantity: (key, quantity) => (this.cart.setQuantity(key, quantity), this.renderCart()),
      remove: (key) => (this.cart.remove(key), this.renderCart()),
      pay: () => this.checkout.begin(),
      clear: () => this.reset(),
    }, this.top.el);
    if (this.catalog) this.shop.setCatalog(this.catalog);
    if (show) this.showShop();
  }

  /** Staff's code entry, opened by holding the logo: it stays out of the customer's cart. */
  private showStaffEntry(): void {
    if (this.checkout.active) return;
    this.showOverlay(staffCodeDialog(this.t, (code) => (this.closeOverlay(), void this.scan(code)), () => this.closeOverlay()));
  }

  /** Opens a modal dialog: the focus moves into it and stays there until it closes. */
  showOverlay(dialog: HTMLDialogElement): void {
    this.closeOverlay();
    this.overlayEl.append(dialog);
    dialog.showModal();
  }

  closeOverlay(name?: string): void {
    const open = this.overlayEl.querySelector('dialog');
    if (!open || (name !== undefined && open.dataset.dialog !== name)) return;
    open.close();
    this.overlayEl.replaceChildren();
  }
}
