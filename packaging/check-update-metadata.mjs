// @ts-check
// Release runners only, after `npm run dist`:
//   node packaging/check-update-metadata.mjs release/latest-linux.yml
// checks that electron-builder wrote the update metadata of the generic
// provider for this version, and that every installer it names is next to it
// with the sha512 electron-updater will verify the download against.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const [metadataFile] = process.argv.slice(2);
if (!metadataFile) {
  console.error('usage: node packaging/check-update-metadata.mjs <release/latest.yml | release/latest-linux.yml>');
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** @type {{ version?: string, files?: { url: string, sha512: string, size?: number }[] }} */
const metadata = parse(readFileSync(metadataFile, 'utf8'));
const problems = [];
if (metadata.version !== version) problems.push(`version is ${metadata.version}, the build is ${version}`);
if (!metadata.files?.length) problems.push('it names no installer');
for (const file of metadata.files ?? []) {
  const bytes = readFileSync(join(dirname(metadataFile), file.url));
  const sha512 = createHash('sha512').update(bytes).digest('base64');
  if (sha512 !== file.sha512) problems.push(`${file.url}: sha512 ${sha512} is not the ${file.sha512} of the metadata`);
  if (file.size !== undefined && file.size !== bytes.length) problems.push(`${file.url}: ${bytes.length} bytes, the metadata says ${file.size}`);
  else console.log(`${file.url}: sha512 and size as ${metadataFile} says`);
}
if (problems.length > 0) {
  console.error(`check-update-metadata: ${metadataFile}: ${problems.join('; ')}`);
  process.exit(1);
}
