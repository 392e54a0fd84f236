import { DESTRUCTIVE } from './destructive';
import { ARITHMETIC, CALLBACKS, CONTINUATIONS, ENVIRONMENT, EXPANSIONS } from './hidden';
import { OPAQUE_CODE } from './opaque';
import { ABBREVIATIONS, GIT_CONFIG, PATH_PROGRAMS, RUNNING_OPTIONS } from './options';
import { READS } from './reads';
import type { Case } from './types';
import { WRITES } from './writes';

/** Every corpus class by name, in the order of issue 10. */
export const CORPUS: Record<string, Case[]> = {
  'backslash-newline': CONTINUATIONS,
  arithmetic: ARITHMETIC,
  'indirect and prompt expansion': EXPANSIONS,
  callbacks: CALLBACKS,
  'code-loading environment': ENVIRONMENT,
  'opaque code': OPAQUE_CODE,
  'long-option abbreviations': ABBREVIATIONS,
  'programs named by a path': PATH_PROGRAMS,
  'options that run programs': RUNNING_OPTIONS,
  'git repository config': GIT_CONFIG,
  destructive: DESTRUCTIVE,
  writes: WRITES,
  reads: READS,
};

export const ALL_CASES: Case[] = Object.values(CORPUS).flat();
