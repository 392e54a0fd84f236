/**
 * The names of files that hold credentials: the data of the one credential predicate,
 * gathered from the file rules of gitleaks (`path =` rules: `.pypirc`, `.npmrc`, `*.tfstate`, keys)
 * and secretlint's preset (`@secretlint/secretlint-rule-no-dotenv`, `-no-k8s-kind-secret`, the
 * private-key rules), plus the cloud SDKs' own key-file names. Matched on the base name (and, for
 * the few that need it, the folder above), ignoring case, after backup suffixes are taken off: an
 * `id_rsa.bak` or `.env~` holds what the original holds.
 */

/** Base names that are credential files whatever their folder. */
export const SECRET_NAMES: readonly string[] = [
  '.env',
  '.envrc',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
  'identity',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pypirc',
  '.netrc',
  '_netrc',
  '.pgpass',
  '.my.cnf',
  '.htpasswd',
  '.git-credentials',
  '.gitcookies',
  '.dockercfg',
  '.s3cfg',
  '.boto',
  '.vault-token',
  '.terraformrc',
  'terraform.rc',
  'credentials',
  'credentials.json',
  'credentials.yml',
  'credentials.yaml',
  'credentials.toml',
  'credentials.xml',
  'credentials.db',
  'access_tokens.db',
  'application_default_credentials.json',
  'auth.json',
  'secrets.json',
  'secrets.yml',
  'secrets.yaml',
  'secrets.toml',
  'secrets.env',
  'kubeconfig',
  'keystore.properties',
  'master.key',
];

/** Extensions (after the last dot) of key stores, private keys and state files that embed secrets. */
export const SECRET_EXTENSIONS: readonly string[] = [
  'pem',
  'key',
  'p8',
  'p12',
  'pfx',
  'jks',
  'jceks',
  'keystore',
  'ppk',
  'kdbx',
  'keychain',
  'keychain-db',
  'ovpn',
  'tfvars',
  'tfstate',
  'kubeconfig',
  'secret',
  'secrets',
  'env',
];

/**
 * Name shapes (whole base name, case ignored): dotenv variants (`.env.production`, `.env-prod`,
 * `.env_local`), cloud service-account key files, private keys named after their host (`deploy_rsa`),
 * terraform state and its backups.
 */
export const SECRET_NAME_SHAPES: readonly RegExp[] = [
  /^\.env[._-].+$/,
  /^client_secret.*\.json$/,
  /^service[-_]?account.*\.json$/,
  /^serviceaccountkey.*\.json$/,
  /^.*firebase-adminsdk.*\.json$/,
  /^.+_(rsa|dsa|ecdsa|ed25519)$/,
  /\.tfstate(\..+)?$/,
  /\.tfvars\.json$/,
];

/** Folder/name pairs: a credential only inside that folder (`.aws/config`, `.kube/config`). */
export const SECRET_IN_FOLDER: readonly (readonly [string, string])[] = [
  ['.aws', 'config'],
  ['.kube', 'config'],
  ['.docker', 'config.json'],
  ['gh', 'hosts.yml'],
  ['.gem', 'credentials'],
];

/** Folders whose every file is a credential (keys, keyrings, password stores, cloud SDK state). */
export const SECRET_FOLDERS: readonly string[] = ['.ssh', '.gnupg', '.password-store', 'gcloud'];

/**
 * Templates committed on purpose, and public halves of key pairs: never secrets by name. `.env.example`
 * is read by every setup guide; asking for it would teach people to approve `.env` without reading.
 */
export const NOT_SECRET_NAMES: readonly string[] = [
  '.env.example',
  '.env.sample',
  '.env.template',
  '.env.dist',
  '.env.defaults',
  '.env.schema',
  'known_hosts',
  'authorized_keys',
  'config',
];
/** Public keys and certificates. */
export const NOT_SECRET_EXTENSIONS: readonly string[] = ['pub', 'crt', 'cer'];

/** Backup and editor suffixes: `x~`, `x.bak`, `.x.swp` hold what `x` holds. */
export const BACKUP_SUFFIX = /(~|\.(bak|bk|old|orig|save|backup|swp|swo|swn|tmp|copy|\d+))+$/;
