/** Excel's built-in number formats that show a date or a time (ids 14-22: dates and times, 45-47: minutes and seconds). */
const BUILT_IN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** Whether a custom number format code shows a date or time: a d, m, y, h or s outside quoted text, escaped characters (`\x`, `_x`, `*x`) and brackets (colours, locales, conditions; `[h]` is an elapsed time). */
function isDateFormatCode(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/[\\_*]./g, '')
    .replace(/\[(h+|m+|s+)\]/gi, '$1')
    .replace(/\[[^\]]*\]/g, '');
  return /[dmyhs]/i.test(bare);
}

/**
 * The number formats of a workbook's cell styles (styles.xml): which style
 * index shows its number as a date. Read from `<numFmts>` (custom codes by
 * id) and `<cellXfs>` (each style's numFmtId, or that of the base style it
 * names with xfId).
 */
export function dateStyleReader() {
  const customCodes = new Map<number, string>();
  const baseFormats: (number | undefined)[] = [];
  const styleFormats: { id: number | undefined; base: number | undefined }[] = [];
  let list: 'cellStyleXfs' | 'cellXfs' | undefined;
  const numberOf = (text: string | undefined) => (text === undefined || text === '' ? undefined : Number(text));
  return {
    open(name: string, attributes: Record<string, string>) {
      if (name === 'numFmt') {
        const id = numberOf(attributes.numFmtId);
        if (id !== undefined && attributes.formatCode !== undefined) customCodes.set(id, attributes.formatCode);
      } else if (name === 'cellStyleXfs' || name === 'cellXfs') {
        list = name;
      } else if (name === 'xf' && list === 'cellStyleXfs') {
        baseFormats.push(numberOf(attributes.numFmtId));
      } else if (name === 'xf' && list === 'cellXfs') {
        styleFormats.push({ id: numberOf(attributes.numFmtId), base: numberOf(attributes.xfId) });
      }
    },
    close(name: string) {
      if (name === list) list = undefined;
    },
    text() {},
    /** The indexes (a cell's `s`) of the styles that show a date. */
    dateStyles(): Set<number> {
      const isDate = (id: number) => {
        const code = customCodes.get(id);
        return code === undefined ? BUILT_IN_DATES.has(id) : isDateFormatCode(code);
      };
      const dates = new Set<number>();
      styleFormats.forEach((style, index) => {
        const id = style.id ?? (style.base === undefined ? undefined : baseFormats[style.base]);
        if (id !== undefined && isDate(id)) dates.add(index);
      });
      return dates;
    },
  };
}
