/**
 * Token shapes from a maintained rule set: secretlint's recommended preset
 * (`@secretlint/secretlint-rule-preset-recommend`, MIT), run as it ships. Its rules know each
 * provider's exact prefix, length and checksum form (GitHub, GitLab, Slack, Stripe, SendGrid,
 * Shopify, Groq, Linear, Notion, Vault, Vercel, Databricks, Docker, Figma, Cloudflare,
 * Tailscale, Grafana, 1Password, database URLs…), so this list is not grown by hand.
 * Each rule runs only on text holding its keyword (as gitleaks does): most audit strings hold
 * none, and the redactor stays fast.
 */
import { presetRules } from './secret-preset';
import { looksRandom } from './secret-values';

/** A span of text a maintained rule reported, with the rule's short name. */
export type MaintainedHit = { start: number; end: number; kind: string };

type RuleSource = { content: string; filePath?: string; ext: string; contentType: 'text' };
type RuleHandler = { file?: (source: RuleSource) => unknown };
type RuleContext = {
  createTranslator: () => (id: string) => string;
  report: (descriptor: { range: readonly [number, number] }) => void;
  ignore: () => void;
};
type PresetRule = { meta: { id: string }; create: (context: RuleContext, options: object) => RuleHandler };

/**
 * The literal each rule needs before it can match (a rule without an entry here is not run, and a
 * test fails when the preset gains a rule this table does not name). Case-sensitive, so one
 * union of them rules most text out in one scan.
 */
export const RULE_KEYWORDS: Readonly<Record<string, RegExp>> = {
  aws: /[Ss][Ee][Cc][Rr][Ee][Tt]_?[Aa][Cc][Cc][Ee][Ss][Ss]_?[Kk][Ee][Yy]|AKIA|ASIA|A3T|AGPA|AIDA|AROA|AIPA|ANPA|ANVA/,
  gcp: /private_key/,
  privatekey: /PRIVATE KEY/,
  npm: /npm_|_authToken/,
  basicauth: /:\/\/[^\s/@[\]]*:[^\s/@[\]]*@/,
  slack: /xox[bpaor]|xapp|hooks\.slack\.com/,
  sendgrid: /SG\./,
  shopify: /shp(?:pa|ca|at|ss)_/,
  stripe: /[sr]k_(?:live|test)_/,
  github: /gh[pousr]_|github_pat_/,
  gitlab: /gl(?:pat|ptt|dt|rt|ft|imt|agent|oas|cbt|soat|ffct)-|GR1348941/,
  grafana: /glc_|glsa_/,
  openai: /T3BlbkFJ/,
  anthropic: /sk-ant-/,
  groq: /gsk_/,
  huggingface: /hf_/,
  linear: /lin_api_/,
  notion: /ntn_/,
  '1password': /ops_ey/,
  'database-connection-string': /:\/\/[^\s/@[\]]*:[^\s/@[\]]*@/,
  'hashicorp-vault': /hv[sbr]\./,
  vercel: /vc[pciark]_/,
  databricks: /dapi/,
  docker: /dckr_pat_/,
  figma: /figd_/,
  cloudflare: /cf(?:k|ut|at)_/,
  tailscale: /tskey-/,
};

/**
 * Preset rules deliberately not run. `filter-comments` honours `secretlint-disable` comments, and
 * text the model writes must not be able to switch redaction off.
 */
export const EXCLUDED_RULES: ReadonlySet<string> = new Set(['filter-comments']);

/**
 * What a hit of a rule must also hold to be a token. The preset's Slack pattern takes any words
 * joined by `-` after `xox?-` (`xoxo-indieweb-1` in a file name, `xoxp-1-initial`, `xoxb-12345-abcd`);
 * Slack's tokens carry the workspace's and user's numeric ids, nine digits and more (gitleaks'
 * Slack rules ask ten to thirteen), or a long random part after a single short number (a config
 * token's `xoxe.xoxp-1-…`); ids all short (`xoxp-1234-1234-1234-<hex>`) are a made-up token's.
 * A webhook URL is judged as the preset judges it.
 */
const ALSO_HOLDS: Readonly<Record<string, (token: string) => boolean>> = {
  slack: (token) => {
    if (token.includes('hooks.slack.com') || /\d{9}/.test(token)) return true;
    const parts = token.split('-');
    return parts.filter((p) => /^\d+$/.test(p)).length <= 1 && parts.some((p) => looksRandom(p, 16));
  },
};

const PREFIX = '@secretlint/secretlint-rule-';

type LoadedRule = { kind: string; keyword: RegExp; handler: RuleHandler };

let hits: MaintainedHit[] = [];
let current = '';

function load(): LoadedRule[] {
  const loaded: LoadedRule[] = [];
  for (const rule of presetRules() as PresetRule[]) {
    const kind = rule.meta.id.replace(PREFIX, '');
    const keyword = RULE_KEYWORDS[kind];
    if (!keyword || EXCLUDED_RULES.has(kind)) continue;
    const context: RuleContext = {
      createTranslator: () => (id) => id,
      report: ({ range }) => {
        const [start, end] = range;
        if (end <= start) return;
        if (ALSO_HOLDS[kind]?.(current.slice(start, end)) === false) return;
        hits.push({ start, end, kind });
      },
      ignore: () => {},
    };
    loaded.push({ kind, keyword, handler: rule.create(context, {}) });
  }
  return loaded;
}

/** The rules, loaded with the preset the first time a text passes the trigger (not at start-up). */
let loadedRules: LoadedRule[] | undefined;

/** The preset's rule names, as this module reads them (for the test that keeps the table whole). */
export const presetRuleKinds = (): string[] =>
  (presetRules() as PresetRule[]).map((r) => r.meta.id.replace(PREFIX, ''));

/**
 * One pass that rules out text no maintained rule could match: the union of the keywords of the
 * rules that run (a test keeps every one of them a rule of the preset), so it needs no preset.
 */
export const MAINTAINED_TRIGGER = new RegExp(
  Object.entries(RULE_KEYWORDS)
    .filter(([kind]) => !EXCLUDED_RULES.has(kind))
    .map(([, keyword]) => `(?:${keyword.source})`)
    .join('|'),
);

/**
 * Spans of `text` the maintained rules report as secrets, in no particular order (they may
 * overlap). Contract: never throws; a rule that fails is skipped (the other rules still run).
 */
export function findMaintained(text: string): MaintainedHit[] {
  return MAINTAINED_TRIGGER.test(text) ? findTriggered(text) : [];
}

/** `findMaintained` for text that MAINTAINED_TRIGGER matched already (a rule's trigger: one scan less). */
export function findTriggered(text: string): MaintainedHit[] {
  hits = [];
  current = text;
  // `.json` lets the GCP rule read service-account JSON; no rule reads a file without a path.
  const source: RuleSource = { content: text, ext: '.json', contentType: 'text' };
  loadedRules ??= load();
  for (const rule of loadedRules) {
    if (!rule.keyword.test(text)) continue;
    try {
      rule.handler.file?.(source);
    } catch {
      // A rule's own bug must not take the audit line down; the name and shape rules still apply.
    }
  }
  const found = hits;
  hits = [];
  current = '';
  return found;
}
