import { z } from 'zod';

export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    version: z.string().describe('Version of this server.'),
    search: z.enum(['ready', 'building']).describe('`building` while a product search index is still being built.'),
  })
  .meta({ id: 'Health' });

export type Health = z.infer<typeof HealthSchema>;
