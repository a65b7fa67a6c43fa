import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';
import type { StatementModel } from './statement-model.js';
import { STATEMENT_TEXTS } from './statement-texts.js';

// The DejaVu fonts ship as an npm package: every umlaut and accent renders, on every PC the server runs on.
const fontFolder = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const REGULAR = join(fontFolder, 'DejaVuSans.ttf');
const BOLD = join(fontFolder, 'DejaVuSans-Bold.ttf');

const MARGIN = 50;
const COLUMNS = { title: MARGIN, quantity: 330, gross: 430, right: 545 };

/** A supplier's statement as an A4 PDF with its fonts embedded. */
export function statementPdf(model: StatementModel): Promise<Buffer> {
  const t = STATEMENT_TEXTS[model.language];
  const money = new Intl.NumberFormat(model.locale, { style: 'currency', currency: 'CHF' });
  const amount = (cents: number) => money.format(cents / 100);
  const quantity = new Intl.NumberFormat(model.locale, { maximumFractionDigits: 3 });
  const percent = new Intl.NumberFormat(model.locale, { maximumFractionDigits: 2 });
  const day = new Intl.DateTimeFormat(model.locale, { dateStyle: 'medium', timeZone: model.timeZone });
  const instant = new Intl.DateTimeFormat(model.locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: model.timeZone });

  const doc = new PDFDocument({ size: 'A4', margin: MARGIN, info: { Title: `${t.title} ${model.number} – ${model.supplier.name}`, CreationDate: new Date(model.to) } });
  doc.registerFont('regular', REGULAR);
  doc.registerFont('bold', BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const row = (cells: { title: string; quantity?: string; gross: string }, font = 'regular') => {
    const y = doc.y;
    doc.font(font).fontSize(10);
    doc.text(cells.title, COLUMNS.title, y, { width: COLUMNS.quantity - COLUMNS.title - 10 });
    const after = doc.y;
    if (cells.quantity !== undefined) doc.text(cells.quantity, COLUMNS.quantity, y, { width: COLUMNS.gross - COLUMNS.quantity - 10, align: 'right' });
    doc.text(cells.gross, COLUMNS.gross, y, { width: COLUMNS.right - COLUMNS.gross, align: 'right' });
    doc.y = Math.max(after, doc.y) + 2;
  };
  const rule = () => {
    doc.moveTo(MARGIN, doc.y).lineTo(COLUMNS.right, doc.y).lineWidth(0.5).stroke();
    doc.y += 4;
  };

  doc.font('bold').fontSize(16).text(`${t.settlement} ${model.number}`, MARGIN, MARGIN);
  doc.moveDown(0.5);
  doc.font('regular').fontSize(10);
  doc.text(`${t.shop}: ${[...new Set(model.shops.map((s) => s.name))].join(', ')}`);
  doc.text(`${t.period} ${day.format(new Date(model.from))} – ${day.format(new Date(model.until))}, ${t.recordedUntil} ${instant.format(new Date(model.to))}`);
  doc.moveDown();
  doc.font('bold').text(`${t.supplier}: ${model.supplier.name}`);
  doc.font('regular');
  if (model.supplier.street) doc.text(model.supplier.street);
  if (model.supplier.city) doc.text([model.supplier.zipCode, model.supplier.city].filter(Boolean).join(' '));
  doc.moveDown();

  row({ title: t.product, quantity: t.quantity, gross: t.gross }, 'bold');
  rule();
  for (const product of model.products) row({ title: product.title, quantity: quantity.format(product.quantity), gross: amount(product.gross) });
  if (model.refunds !== 0) row({ title: t.refunds, gross: amount(model.refunds) });
  rule();
  row({ title: t.total, gross: amount(model.totals.gross) }, 'bold');
  for (const shop of model.shops) {
    const where = model.shops.length > 1 ? ` (${shop.name})` : '';
    row({ title: `${t.margin} ${percent.format(shop.marginPercent)} %${where}`, gross: amount(-shop.margin) });
  }
  rule();
  row({ title: t.payout, gross: amount(model.totals.payout) }, 'bold');
  doc.moveDown();
  doc.font('regular').fontSize(10).text(model.account ? `${t.account}: ${model.account}` : `${t.noPayout} (${model.totals.payoutProblem})`, MARGIN);
  doc.end();
  return done;
}
