import { z } from 'zod';

/**
 * An e-mail address, checked loosely: it must hold an `@` between two
 * non-blank characters, so a phone number or a name in the wrong field is
 * refused while lists such as "a@shop.ch, b@shop.ch" still pass. An empty
 * string means "none".
 */
export const EmailSchema = z
  .string()
  .refine((value) => value === '' || /\S@\S/.test(value), { error: 'must be an e-mail address such as orders@example.ch, or empty' })
  .describe('E-mail address (checked loosely: contains an @); empty means none.');
