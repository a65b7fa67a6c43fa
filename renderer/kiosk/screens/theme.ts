import { parseRgb, readableText, type Rgb } from '../contrast.js';
import type { KioskSettings } from '../store-settings.js';

/** The style sheet's own --kiosk-bg, for a store that sets a text colour but no background. */
const DEFAULT_BACKGROUND: Rgb = [244, 245, 247];

const cssUrl = (src: string) => `url("${src.replace(/["\\\n]/g, (c) => encodeURIComponent(c))}")`;

/** A colour as the browser understands it (names, hex, rgb(), hsl()), or undefined when it does not. */
function computedColour(css: string): ReturnType<typeof parseRgb> {
  const probe = document.createElement('span');
  probe.style.color = css;
  if (probe.style.color === '') return undefined;
  document.body.append(probe);
  const rgb = parseRgb(getComputedStyle(probe).color);
  probe.remove();
  return rgb;
}

/**
 * Colours and the background picture; the cart background replaces the start
 * one while a purchase is under way. The store's text colour is used only
 * where it reads on the store's background (4.5:1); text drawn over a picture
 * sits on a scrim, since no single colour reads on every part of a photo.
 */
export function applyTheme(root: HTMLElement, settings: KioskSettings, cartInUse: boolean): void {
  // The colours never change while the kiosk runs: worked out once, not on every scan.
  if (root.dataset.colours !== 'set') {
    root.dataset.colours = 'set';
    const background = settings.backgroundColor ? computedColour(settings.backgroundColor) : undefined;
    if (background) root.style.setProperty('--kiosk-bg', `rgb(${background.join(' ')})`);
    const wanted = settings.backgroundFontColor ? computedColour(settings.backgroundFontColor) : undefined;
    if (background || wanted) root.style.setProperty('--kiosk-fg', `rgb(${readableText(background ?? DEFAULT_BACKGROUND, wanted).join(' ')})`);
  }
  const image = cartInUse ? (settings.backgroundImageCart ?? settings.backgroundImage) : settings.backgroundImage;
  root.style.backgroundImage = image ? cssUrl(image) : '';
  root.dataset.background = image ?? '';
}
