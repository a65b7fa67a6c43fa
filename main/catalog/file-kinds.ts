/** What a catalog file's first bytes say it is. */
export type FileKind = 'xlsx' | 'ods' | 'xls' | 'zip' | 'text';

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * The kind of a file by its content, whatever its name or `Content-Type`
 * say: an OpenDocument file names its type in a first entry called
 * `mimetype`; an Excel workbook holds `xl/workbook.xml`; an old `.xls` is an
 * OLE2 compound file.
 */
export function fileKindOf(bytes: Buffer): FileKind {
  if (bytes.subarray(0, 8).equals(OLE2)) return 'xls';
  if (!bytes.subarray(0, 4).equals(ZIP)) return 'text';
  const head = bytes.subarray(0, 200).toString('latin1');
  if (head.includes('mimetypeapplication/vnd.oasis.opendocument')) return 'ods';
  return bytes.includes('xl/workbook.xml', 0, 'latin1') ? 'xlsx' : 'zip';
}

/** What to tell about a file that is not what it was sent as; undefined when it is. */
export function wrongKindMessage(kind: FileKind, sentAs: 'csv' | 'xlsx'): string | undefined {
  switch (kind) {
    case 'xls':
      return 'The file is an old Excel workbook (.xls, Excel 97-2003), which is not read here: open it in Excel and save it as "Excel Workbook (.xlsx)" or "CSV UTF-8", then send that';
    case 'ods':
      return 'The file is an OpenDocument spreadsheet (.ods, from LibreOffice or OpenOffice), which is not read here: save it as "Excel 2007-365 (.xlsx)" or as CSV, then send that';
    case 'zip':
      return 'The file is a ZIP archive, not a spreadsheet: send the .xlsx or .csv file itself (a Numbers file: export it as Excel or CSV first)';
    case 'xlsx':
      return sentAs === 'csv'
        ? 'The file is an Excel workbook (.xlsx), sent as CSV (perhaps renamed to .csv): send it with Content-Type application/vnd.openxmlformats-officedocument.spreadsheetml.sheet (the staff page does this for an .xlsx file), or save it as "CSV UTF-8" in Excel'
        : undefined;
    case 'text':
      return sentAs === 'xlsx' ? 'The file was sent as an Excel workbook but is text (a CSV file?): send it with Content-Type text/csv, or save it as "Excel Workbook (.xlsx)"' : undefined;
  }
}
