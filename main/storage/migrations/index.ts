import { foundation } from './0001-foundation.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration in order. Append new files; never edit one that has shipped. */
export const migrations: Migration[] = [foundation];
