/**
 * Token shapes found by their own prefix, as data. The maintained preset (secret-maintained.ts)
 * is the main source; these cover what it leaves out (PyPI, DigitalOcean, Google API and OAuth,
 * AWS key ids, Atlassian, Heroku, age, Mailgun, Telegram, JWTs, Square — after gitleaks' rules of the
 * same names) and looser forms of what it has (an OpenAI project key without its marker, a
 * GitHub token of an unexpected length), so a near miss of the exact form is still hidden.
 */

/**
 * One shape: a cheap literal trigger, the token pattern, whether a match must hold a digit, and the
 * gitleaks rule that knows the exact form of tokens so prefixed with that form's layout: a match in
 * the layout that the rule did not find is let go (secret-patterns.ts also finds such rules by a
 * versioned prefix, `sk-ant-api03`).
 */
export type SecretShape = {
  kind: string;
  trigger: RegExp;
  pattern: RegExp;
  needsDigit?: boolean;
  exactForm?: { rule: string; frame: RegExp };
};

export const SECRET_SHAPES: readonly SecretShape[] = [
  { kind: 'anthropic', trigger: /sk-ant-/, pattern: /(?<![\w-])sk-ant-[A-Za-z0-9_-]{16,}/g },
  {
    kind: 'openai',
    trigger: /sk-/,
    pattern: /(?<![\w-])sk-(?!(?:proj|svcacct|admin)-)[A-Za-z0-9_-]{20,}/g,
    needsDigit: true,
  },
  // OpenAI's own prefixes: their keys carry `T3BlbkFJ` (base64 of "OpenAI") at a fixed place, which
  // gitleaks' rule knows. A key laid out exactly so with something else in the marker's place is a
  // test's non-match (secretlint's fixtures), not a key; one of another length is a near miss, hidden.
  {
    kind: 'openai',
    trigger: /sk-(?:proj|svcacct|admin)-/,
    pattern: /(?<![\w-])sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/g,
    exactForm: {
      rule: 'openai-api-key',
      frame: /^sk-(?:proj|svcacct|admin)-(?:[\w-]{74}[\w-]{8}[\w-]{74}|[\w-]{58}[\w-]{8}[\w-]{58})$/,
    },
  },
  { kind: 'github', trigger: /gh[pousr]_/, pattern: /(?<!\w)gh[pousr]_[A-Za-z0-9_]{30,}/g },
  { kind: 'github', trigger: /github_pat_/, pattern: /(?<!\w)github_pat_[A-Za-z0-9_]{30,}/g },
  { kind: 'gitlab', trigger: /glpat-/, pattern: /(?<![\w-])glpat-[A-Za-z0-9_-]{20,}/g },
  {
    kind: 'aws',
    trigger: /A[SKBCGIRNP][IC]?A|A3T/,
    pattern:
      /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g,
  },
  { kind: 'google', trigger: /AIza/, pattern: /(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])/g },
  { kind: 'google', trigger: /GOCSPX-/, pattern: /(?<![\w-])GOCSPX-[A-Za-z0-9_-]{28}(?![\w-])/g },
  { kind: 'google', trigger: /1\/\/0/, pattern: /(?<![\w/])1\/\/0[A-Za-z0-9_-]{40,}/g },
  {
    kind: 'stripe',
    trigger: /_live_|_test_/,
    pattern: /(?<!\w)(?:sk|rk|pk|whsec)_(?:live|test)_[A-Za-z0-9]{16,}/g,
  },
  { kind: 'stripe', trigger: /whsec_/, pattern: /(?<!\w)whsec_[A-Za-z0-9]{24,}/g },
  { kind: 'npm', trigger: /npm_/, pattern: /(?<!\w)npm_[A-Za-z0-9]{36}(?!\w)/g },
  {
    kind: 'jwt',
    trigger: /eyJ/,
    pattern: /(?<![\w-])eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
  },
  { kind: 'sendgrid', trigger: /SG\./, pattern: /(?<![\w.])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g },
  { kind: 'pypi', trigger: /pypi-/, pattern: /(?<![\w-])pypi-AgE[A-Za-z0-9_-]{50,}/g },
  { kind: 'digitalocean', trigger: /do[opr]_v1_/, pattern: /(?<!\w)do[opr]_v1_[a-f0-9]{64}(?![a-f0-9])/g },
  {
    kind: 'shopify',
    trigger: /shp(?:at|ca|pa|ss)_/,
    pattern: /(?<!\w)shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![a-fA-F0-9])/g,
  },
  { kind: 'atlassian', trigger: /ATATT3/, pattern: /(?<!\w)ATATT3[A-Za-z0-9_=-]{60,}/g },
  { kind: 'heroku', trigger: /HRKU-/, pattern: /(?<![\w-])HRKU-[A-Za-z0-9_-]{30,}/g },
  {
    kind: 'age',
    trigger: /AGE-SECRET-KEY-1/,
    pattern: /AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}/g,
  },
  { kind: 'mailgun', trigger: /key-/, pattern: /(?<![\w-])key-[0-9a-f]{32}(?![0-9a-f])/g },
  { kind: 'telegram', trigger: /:AA/, pattern: /(?<![\d:])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![\w-])/g },
  { kind: '1password', trigger: /ops_ey/, pattern: /(?<!\w)ops_ey[A-Za-z0-9+/_-]{60,}={0,2}/g },
  { kind: 'vault', trigger: /hv[sbr]\./, pattern: /(?<![\w.])hv[sbr]\.[A-Za-z0-9_-]{24,}/g },
  { kind: 'databricks', trigger: /dapi/, pattern: /(?<!\w)dapi[a-f0-9]{32}(?:-\d)?(?![a-f0-9])/g },
  // Square's documented prefixes; the body up to the next blank or quote, so a token pasted from a page
  // that escaped it (`sq0csp-my\_k7…^T^…`, gitleaks' own example) is hidden whole.
  {
    kind: 'square',
    trigger: /sq0(?:csp|atp|idp)-/,
    pattern: /(?<![\w-])sq0(?:csp|atp|idp)-[^\s"'`<>]{22,}/g,
    needsDigit: true,
  },
];
