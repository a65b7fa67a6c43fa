import { z } from 'zod';

export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    version: z.string().describe('Version of this server.'),
    search: z.enum(['ready', 'building']).describe('`building` while a product search index is still being built.'),
  })
  .meta({ id: 'Health' });

export type Health = z.infer<typeof HealthSchema>;

export const SystemInfoSchema = z
  .object({
    version: z.string().describe('Version of this server.'),
    databaseBytes: z.int().describe('Size of the SQLite database with its write-ahead log, in bytes.'),
    diskFreeBytes: z.int().describe('Space left for the data folder on its disk, in bytes (what an unprivileged process may use).'),
    diskTotalBytes: z.int().describe('Size of the disk holding the data folder, in bytes.'),
    tlsFingerprint: z
      .string()
      .nullable()
      .meta({ 'x-extension': true })
      .describe('SHA-256 fingerprint (`AB:CD:…`) of the certificate this server serves HTTPS with, for staff to compare when a till first connects; null over plain HTTP.'),
  })
  .meta({ id: 'SystemInfo', description: 'What staff check on the store PC: version, database size and disk space.' });

export type SystemInfo = z.infer<typeof SystemInfoSchema>;
