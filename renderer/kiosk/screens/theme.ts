import type { KioskSettings } from '../store-settings.js';

const cssUrl = (src: string) => `url("${src.replace(/["\\\n]/g, (c) => encodeURIComponent(c))}")`;

/** Colors and the background picture; the cart background replaces the start one while a purchase is under way. */
export function applyTheme(root: HTMLElement, settings: KioskSettings, cartInUse: boolean): void {
  if (settings.backgroundColor) root.style.setProperty('--kiosk-bg', settings.backgroundColor);
  if (settings.backgroundFontColor) root.style.setProperty('--kiosk-fg', settings.backgroundFontColor);
  const image = cartInUse ? (settings.backgroundImageCart ?? settings.backgroundImage) : settings.backgroundImage;
  root.style.backgroundImage = image ? cssUrl(image) : '';
  root.dataset.background = image ?? '';
}
