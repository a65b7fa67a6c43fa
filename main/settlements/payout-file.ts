import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { Settlement } from '../../shared/api/settlements.js';
import type { PayoutAccount } from '../storage/payout-accounts.js';
import { ibanOf } from './iban.js';
import { spsText } from './sps-text.js';

export const PAIN_001_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';

/** A supplier the file pays: name, account and address as the supplier record has them. */
export interface Creditor {
  supplier: string;
  name: string;
  iban: string;
  payout: number;
  street?: string | undefined;
  zipCode?: string | undefined;
  city?: string | undefined;
}

export interface PayoutFileInput {
  settlement: Settlement;
  debtor: PayoutAccount;
  creditors: Creditor[];
  /** When the file is made; its day is the requested execution date. */
  now: Date;
}

const francs = (cents: number) => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** SPS references: letters, digits and `-` only, at most 35 characters. */
const reference = (...parts: (string | number)[]) => parts.join('-').replace(/[^A-Za-z0-9-]/g, '').slice(0, 35);

function address(parent: XMLBuilder, place: { street?: string | undefined; zipCode?: string | undefined; city?: string | undefined }, country: string): void {
  if (!place.city) return;
  const adr = parent.ele('PstlAdr');
  if (place.street) adr.ele('StrtNm').txt(spsText(place.street, 70));
  if (place.zipCode) adr.ele('PstCd').txt(spsText(place.zipCode, 16));
  adr.ele('TwnNm').txt(spsText(place.city, 35));
  adr.ele('Ctry').txt(country);
}

/**
 * A settlement's payouts as an ISO 20022 `pain.001.001.09` customer credit
 * transfer after the Swiss Payment Standards (`pain.001.001.09.ch.03`): one
 * payment from the payout account with one CHF transfer per supplier. The
 * message id is the settlement's, so a bank that has the file once refuses it
 * a second time instead of paying twice.
 */
export function payoutFile(input: PayoutFileInput): string {
  const { settlement, debtor, creditors, now } = input;
  const count = String(creditors.length);
  const total = francs(creditors.reduce((sum, c) => sum + c.payout, 0));
  const debtorIban = ibanOf(debtor.iban);
  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele(PAIN_001_NAMESPACE, 'Document');
  const initiation = root.ele('CstmrCdtTrfInitn');
  const header = initiation.ele('GrpHdr');
  header.ele('MsgId').txt(reference('S', settlement.number, settlement.id));
  header.ele('CreDtTm').txt(`${now.toISOString().slice(0, 19)}Z`);
  header.ele('NbOfTxs').txt(count);
  header.ele('CtrlSum').txt(total);
  header.ele('InitgPty').ele('Nm').txt(spsText(debtor.name, 70));

  const payment = initiation.ele('PmtInf');
  payment.ele('PmtInfId').txt(reference('P', settlement.number, settlement.id));
  payment.ele('PmtMtd').txt('TRF');
  payment.ele('BtchBookg').txt('false');
  payment.ele('NbOfTxs').txt(count);
  payment.ele('CtrlSum').txt(total);
  payment.ele('ReqdExctnDt').ele('Dt').txt(now.toISOString().slice(0, 10));
  const debtorParty = payment.ele('Dbtr');
  debtorParty.ele('Nm').txt(spsText(debtor.name, 70));
  address(debtorParty, debtor, debtor.country ?? debtorIban.slice(0, 2));
  payment.ele('DbtrAcct').ele('Id').ele('IBAN').txt(debtorIban);
  const agent = payment.ele('DbtrAgt').ele('FinInstnId');
  if (debtor.bic) agent.ele('BICFI').txt(debtor.bic);
  else if (/^(CH|LI)/.test(debtorIban)) {
    // A Swiss or Liechtenstein IBAN names its bank by the IID in positions 5-9.
    const member = agent.ele('ClrSysMmbId');
    member.ele('ClrSysId').ele('Cd').txt('CHBCC');
    member.ele('MmbId').txt(debtorIban.slice(4, 9));
  } else agent.ele('Othr').ele('Id').txt('NOTPROVIDED');

  for (const creditor of creditors) {
    const transfer = payment.ele('CdtTrfTxInf');
    const id = transfer.ele('PmtId');
    id.ele('InstrId').txt(reference('S', settlement.number, creditor.supplier));
    id.ele('EndToEndId').txt(reference('S', settlement.number, creditor.supplier));
    transfer.ele('Amt').ele('InstdAmt', { Ccy: 'CHF' }).txt(francs(creditor.payout));
    const creditorParty = transfer.ele('Cdtr');
    creditorParty.ele('Nm').txt(spsText(creditor.name, 70));
    const iban = ibanOf(creditor.iban);
    address(creditorParty, creditor, iban.slice(0, 2));
    transfer.ele('CdtrAcct').ele('Id').ele('IBAN').txt(iban);
    transfer.ele('RmtInf').ele('Ustrd').txt(spsText(`Abrechnung ${settlement.number} bis ${settlement.to.slice(0, 10)}`, 140));
  }
  return root.end({ prettyPrint: true });
}
