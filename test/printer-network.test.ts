import { describe, expect, it } from 'vitest';
import { parsePrinterAllowAddresses, parsePrinterPorts, printerAddressProblem, printerNetworkPolicy, printerPortProblem } from '../main/receipts/printer-network.js';

const strict = printerNetworkPolicy();

describe('printer addresses', () => {
  it.each([
    ['192.168.1.50', undefined],
    ['10.0.0.7', undefined],
    ['172.16.4.2', undefined],
    ['fd00::5', undefined],
    ['[fd12:3456::1]', undefined],
    ['::ffff:192.168.1.50', undefined],
    ['127.0.0.1', 'is a loopback address (this computer itself)'],
    ['::1', 'is a loopback address (this computer itself)'],
    ['169.254.10.20', 'is a link-local address'],
    ['fe80::1', 'is a link-local address'],
    ['0.0.0.0', 'is the unspecified address'],
    ['224.0.0.251', 'is a multicast address'],
    ['255.255.255.255', 'is the broadcast address'],
    ['8.8.8.8', 'is not on a private network (a public or reserved address)'],
    ['100.64.0.1', 'is not on a private network (a public or reserved address)'],
    ['2001:4860:4860::8888', 'is not on a private network (a public or reserved address)'],
    ['::ffff:127.0.0.1', 'is a loopback address (this computer itself)'],
  ])('%s: %s', (address, rule) => {
    const problem = printerAddressProblem(address, strict);
    if (rule === undefined) expect(problem).toBeUndefined();
    else expect(problem).toContain(rule);
    if (rule) expect(problem).toContain('PRINTER_ALLOW_ADDRESSES');
  });

  it('allows loopback and listed ranges only when the setting names them', () => {
    const loopback = printerNetworkPolicy({ PRINTER_ALLOW_ADDRESSES: 'loopback' });
    expect(printerAddressProblem('127.0.0.1', loopback)).toBeUndefined();
    expect(printerAddressProblem('::1', loopback)).toBeUndefined();
    expect(printerAddressProblem('169.254.1.1', loopback)).toContain('link-local');
    const range = printerNetworkPolicy({ PRINTER_ALLOW_ADDRESSES: ' 203.0.113.0/24 , 2001:db8::/32' });
    expect(printerAddressProblem('203.0.113.9', range)).toBeUndefined();
    expect(printerAddressProblem('2001:db8::9', range)).toBeUndefined();
    expect(printerAddressProblem('203.0.114.9', range)).toContain('not on a private network');
  });

  it('refuses a setting that is neither "loopback" nor a CIDR range, naming it', () => {
    expect(() => parsePrinterAllowAddresses('loopback,printers')).toThrow('"printers" is neither');
    expect(parsePrinterAllowAddresses(undefined)).toEqual([]);
  });
});

describe('printer ports', () => {
  it('allows 9100-9102 by default and refuses others, naming the setting', () => {
    expect(parsePrinterPorts(undefined)).toEqual([[9100, 9102]]);
    for (const port of [9100, 9101, 9102]) expect(printerPortProblem(port, strict)).toBeUndefined();
    expect(printerPortProblem(22, strict)).toBe('Port 22 is not a printer port this server prints to (9100-9102); the PRINTER_PORTS setting allows others');
    expect(printerPortProblem(9103, strict)).toContain('Port 9103');
  });

  it('reads ports and ranges, and refuses anything else', () => {
    const wide = printerNetworkPolicy({ PRINTER_PORTS: '9100-9102, 515' });
    expect(printerPortProblem(515, wide)).toBeUndefined();
    expect(printerPortProblem(516, wide)).toContain('(9100-9102, 515)');
    for (const bad of ['0', '70000', '9102-9100', 'lpd', '9100,']) expect(() => parsePrinterPorts(bad), bad).toThrow('PRINTER_PORTS must list');
  });
});
