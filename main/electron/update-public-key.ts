/**
 * The public half of the release key that signs the Linux update files
 * (AppImage, deb): `packaging/sign-update.mjs sign` makes `<file>.sig` with
 * the private half, kept only as the release workflow's secret
 * UPDATE_SIGNING_KEY. An update whose signature does not match this key is
 * never installed. To sign with a key of your own, replace this block with
 * what `node packaging/sign-update.mjs keygen` prints (docs/desktop.md);
 * packaging/sign-update.mjs verify reads it from here.
 */
export const UPDATE_SIGNING_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAjDEuWAlI5u48aEbmTLf9F5m2xVlsFE89uJnDRjHhK5Q=
-----END PUBLIC KEY-----
`;
