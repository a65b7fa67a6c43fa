// The worker of feed-offload.ts: tsx's loader first, then the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import(new URL('./feed-offload-reader.ts', import.meta.url).href);
