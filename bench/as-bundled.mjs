// `node --import ./bench/as-bundled.mjs`: resolves modules as the bundle does (scripts/build.mjs's
// aliases), so a bench of UI code measures what ships: string-width and the line tokenizer behind
// their memos.
import { register } from 'node:module';

register('./as-bundled-hooks.mjs', import.meta.url);
