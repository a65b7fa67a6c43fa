import adyen from '@adyen/api-library';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTerminalSimulator, type TerminalSimulator } from './support/terminal-simulator.js';

const { Client, EnvironmentEnum, TerminalLocalAPI, Types } = adyen;
const T = Types.terminal;

/** The library posts to `<terminalApiLocalEndpoint>:8443/nexo/`, a port it does not let one change. */
const LIBRARY_PORT = 8443;

/**
 * A simulator on port 8443 of a loopback address of its own, so that other
 * simulators (other test runs on this machine) can hold 8443 on theirs.
 */
async function simulatorOnLibraryPort(): Promise<TerminalSimulator> {
  for (let tries = 0; ; tries++) {
    const host = `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(2, 255)}`;
    try {
      return await startTerminalSimulator(['--host', host, '--port', String(LIBRARY_PORT)]);
    } catch (err) {
      if (tries >= 5 || !/is taken/.test(String(err))) throw err;
    }
  }
}

let sim: TerminalSimulator;
let folder: string;
let terminalApi: InstanceType<typeof TerminalLocalAPI>;
let securityKey: InstanceType<typeof T.SecurityKey>;

beforeAll(async () => {
  sim = await simulatorOnLibraryPort();
  folder = mkdtempSync(join(tmpdir(), 'adyen-library-'));
  // The library takes the terminal's CA only as a file.
  const certificatePath = join(folder, 'terminal-ca.pem');
  writeFileSync(certificatePath, sim.ready.certificate);
  const client = new Client({
    environment: EnvironmentEnum.TEST,
    certificatePath,
    terminalApiLocalEndpoint: `https://${sim.ready.host}`,
    // The library refuses to send without an API key even in local mode, where the terminal reads none.
    apiKey: 'local-mode',
  });
  terminalApi = new TerminalLocalAPI(client);
  securityKey = { AdyenCryptoVersion: 1, KeyIdentifier: sim.ready.keyIdentifier, KeyVersion: sim.ready.keyVersion, Passphrase: sim.ready.passphrase };
});
afterAll(async () => {
  await sim?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const SALE_ID = 'LibraryTill';

const header = (category: (typeof T.MessageCategoryType)[keyof typeof T.MessageCategoryType], serviceId: string) => ({
  ProtocolVersion: '3.0',
  MessageClass: T.MessageClassType.Service,
  MessageCategory: category,
  MessageType: T.MessageType.Request,
  SaleID: SALE_ID,
  ServiceID: serviceId,
  POIID: sim.ready.poiId,
});

describe("Adyen's own TerminalLocalAPI, unchanged, against the simulator", () => {
  const reference = `library-sale-${Date.now()}`;
  let poiTransaction: { TransactionID: string; TimeStamp: string };

  it('takes a payment', async () => {
    await sim.next({ outcome: 'approve', brand: 'visa' });
    const answer = await terminalApi.request(
      {
        SaleToPOIRequest: {
          MessageHeader: header(T.MessageCategoryType.Payment, 'libpay0001'),
          PaymentRequest: {
            SaleData: { SaleTransactionID: { TransactionID: reference, TimeStamp: new Date().toISOString() } },
            PaymentTransaction: { AmountsReq: { Currency: 'CHF', RequestedAmount: 4.2 } },
          },
        },
      },
      securityKey,
    );
    const payment = answer.SaleToPOIResponse?.PaymentResponse;
    expect(payment?.Response.Result).toBe('Success');
    expect(payment?.PaymentResult?.AmountsResp?.AuthorizedAmount).toBe(4.2);
    expect(payment?.PaymentResult?.PaymentInstrumentData?.CardData?.PaymentBrand).toBe('visa');
    poiTransaction = payment?.POIData.POITransactionID as typeof poiTransaction;
    expect(poiTransaction.TransactionID).toMatch(/\S/);
  });

  it("reports that payment's status", async () => {
    const answer = await terminalApi.request(
      {
        SaleToPOIRequest: {
          MessageHeader: header(T.MessageCategoryType.TransactionStatus, 'libstat001'),
          TransactionStatusRequest: { MessageReference: { MessageCategory: T.MessageReference.MessageCategoryEnum.Payment, SaleID: SALE_ID, ServiceID: 'libpay0001' } },
        },
      },
      securityKey,
    );
    const status = answer.SaleToPOIResponse?.TransactionStatusResponse;
    expect(status?.Response.Result).toBe('Success');
    const repeated = status?.RepeatedMessageResponse;
    expect(repeated?.MessageHeader).toMatchObject({ ServiceID: 'libpay0001', SaleID: SALE_ID, POIID: sim.ready.poiId });
    const again = repeated?.RepeatedResponseMessageBody?.PaymentResponse;
    expect(again?.Response.Result).toBe('Success');
    expect(again?.POIData.POITransactionID.TransactionID).toBe(poiTransaction.TransactionID);
  });

  it('reverses it', async () => {
    const answer = await terminalApi.request(
      {
        SaleToPOIRequest: {
          MessageHeader: header(T.MessageCategoryType.Reversal, 'librev0001'),
          ReversalRequest: { OriginalPOITransaction: { POITransactionID: poiTransaction }, ReversalReason: T.ReversalReasonType.MerchantCancel },
        },
      },
      securityKey,
    );
    expect(answer.SaleToPOIResponse?.ReversalResponse?.Response.Result).toBe('Success');
    const [taken] = (await sim.transactions()).filter((t) => t.reference === reference);
    expect(taken).toMatchObject({ amount: 420, currency: 'CHF', state: 'approved', refunded: 420, brand: 'visa' });
  });
});
