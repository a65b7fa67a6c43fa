import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { StandardErrorSchema, SuccessSchema } from '../api/common.js';
import { StaffSignInSchema } from '../api/staff-sign-in.js';
import { EXTENSION, errors, json } from './helpers.js';

export function registerStaffSignInPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/staff/sign-in',
    ...EXTENSION,
    summary: 'Sign the staff page in for a working day (Write or Read key)',
    description:
      'Sent with the key in `Authorization`. The answer sets the cookie `staff_sign_in` (HttpOnly, SameSite=Strict, Path=/, Secure over HTTPS), ' +
      'which then stands for that key (same kind, same store) in requests without `Authorization` until it expires (12 hours), ' +
      'the page signs out, or the key is revoked; then such a request answers 401. A write made with the cookie must carry this server\'s own `Origin`. ' +
      'Only the token\'s hash is stored. `Idempotency-Key` is not honoured here, since a kept answer would keep the secret.',
    responses: {
      201: json(StaffSignInSchema, 'Signed in; the cookie is set.'),
      ...errors([403]),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/staff/sign-in',
    ...EXTENSION,
    summary: 'Sign the staff page out (the sign-in, or a Write or Read key)',
    description: 'Ends the sign-in the `staff_sign_in` cookie carries and clears the cookie; the very next request with it answers 401.',
    responses: {
      200: json(SuccessSchema, 'Signed out.'),
      401: json(StandardErrorSchema, "The cookie's sign-in has already ended: sign in again with the key."),
      ...errors([403]),
    },
  });
}
