/** An sRGB colour, channels 0 to 255. */
export type Rgb = readonly [number, number, number];

/** Text at least this many times brighter or darker than its background reads at normal size (WCAG AA). */
export const TEXT_CONTRAST = 4.5;

/** Reads `rgb(r, g, b)` / `rgba(r, g, b, a)` as browsers compute colours; anything else is undefined. */
export function parseRgb(css: string): Rgb | undefined {
  const m = /^rgba?\(\s*(\d+(?:\.\d+)?)[,\s]+(\d+(?:\.\d+)?)[,\s]+(\d+(?:\.\d+)?)/.exec(css.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const DARK: Rgb = [17, 20, 24];
const LIGHT: Rgb = [255, 255, 255];

/** The store's text colour when it reads on the background, otherwise near-black or white, whichever reads better. */
export function readableText(background: Rgb, wanted: Rgb | undefined): Rgb {
  if (wanted && contrastRatio(wanted, background) >= TEXT_CONTRAST) return wanted;
  return contrastRatio(DARK, background) >= contrastRatio(LIGHT, background) ? DARK : LIGHT;
}
