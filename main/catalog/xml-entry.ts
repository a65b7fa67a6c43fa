import { StringDecoder } from 'node:string_decoder';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createInflateRaw } from 'node:zlib';
import { SaxesParser } from 'saxes';
import type { ZipEntry } from './zip-directory.js';

/** How long the parse runs before it lets the event loop answer other requests. */
const SLICE_MS = 4;
/** A stored (not deflated) entry is fed to the parser in pieces of this size. */
const STORED_PIECE = 16_384;

/** What a part's XML is read for: elements by their local name (without a prefix such as `x:`), and the text inside them. */
export interface XmlHandlers {
  open(name: string, attributes: Record<string, string>): void;
  close(name: string): void;
  /** Text may come in several pieces for one element. */
  text(text: string): void;
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

async function* packedChunks(entry: ZipEntry): AsyncGenerator<Buffer> {
  if (entry.method === 0) {
    for (let at = 0; at < entry.packed.length; at += STORED_PIECE) yield entry.packed.subarray(at, at + STORED_PIECE);
    return;
  }
  const inflater = createInflateRaw();
  inflater.end(entry.packed);
  try {
    for await (const chunk of inflater) yield chunk as Buffer;
  } finally {
    inflater.destroy();
  }
}

/**
 * Reads a part of a workbook as a stream: inflated a chunk at a time and
 * parsed by a SAX parser, so that neither the part's text nor a tree of it
 * is ever held whole, and the server's own thread parses for a few
 * milliseconds per turn of the event loop. Attribute names keep their
 * prefix (`r:id`).
 */
export async function readXmlEntry(entry: ZipEntry, handlers: XmlHandlers): Promise<void> {
  const parser = new SaxesParser({ position: false });
  parser.on('opentag', (tag) => handlers.open(localName(tag.name), tag.attributes as Record<string, string>));
  parser.on('closetag', (tag) => handlers.close(localName(tag.name)));
  parser.on('text', handlers.text);
  parser.on('cdata', handlers.text);
  // Malformed XML is told apart from what the handlers refuse (a cell that holds no number), which they throw themselves.
  let malformed: Error | undefined;
  parser.on('error', (err) => (malformed ??= err));
  const refuseMalformed = () => {
    if (malformed) throw new Error(`${entry.name} is not well-formed XML (${malformed.message.replace(/\.$/, '')})`);
  };
  const feed = (text: string) => {
    parser.write(text);
    refuseMalformed();
  };
  const decoder = new StringDecoder('utf8');
  let ends = performance.now() + SLICE_MS;
  for await (const chunk of packedChunks(entry)) {
    feed(decoder.write(chunk));
    if (performance.now() >= ends) {
      await nextTurn();
      ends = performance.now() + SLICE_MS;
    }
  }
  feed(decoder.end());
  parser.close();
  refuseMalformed();
}
