import { z } from 'zod';
import { DateTimeSchema } from './common.js';

export const StaffSignInSchema = z
  .object({
    success: z.boolean(),
    expiresAt: DateTimeSchema.describe('When the sign-in ends by itself, a working day after it began; signing out or revoking the key ends it sooner.'),
  })
  .meta({
    id: 'StaffSignIn',
    description:
      'A sign-in of the staff page. Its secret travels only in the `staff_sign_in` cookie the answer sets (HttpOnly, SameSite=Strict), never in the body.',
  });

export type StaffSignIn = z.infer<typeof StaffSignInSchema>;
