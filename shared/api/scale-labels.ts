import { z } from 'zod';

export const ScaleLabelSchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('weight'),
      grams: z.int().describe('Weight printed in the label, in grams.'),
      price: z.int().describe("Price in cents: the product's price per kilogram x the weight, rounded half up."),
    }),
    z.object({
      kind: z.literal('price'),
      price: z.int().describe('Price printed in the label, in cents.'),
    }),
  ])
  .meta({
    id: 'ScaleLabel',
    description:
      'Extension: what a scanned scale label says. Present only on `GET /products?barcode=` answers whose code ' +
      'matched no barcode exactly but a scale-label rule (by default `21IIIIIVVVVVC` weight in grams, `23IIIIIVVVVVC` price in cents).',
  });

export type ScaleLabel = z.infer<typeof ScaleLabelSchema>;
