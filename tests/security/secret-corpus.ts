/**
 * Secret shapes for the redaction tests, after gitleaks' default rule set
 * (config/gitleaks.toml of github.com/gitleaks/gitleaks; `rule` is its rule
 * id, or the environment / URL shapes issue 23 names). Values are made at
 * run time from a seeded generator, so the repository holds no string a
 * secret scanner would flag, and each run checks the same values. `secret`
 * is the part that must not survive; `line` is how it appears in the wild.
 */
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const ALNUM = LOWER + UPPER + DIGITS;
const HEX = '0123456789abcdef';

let seed = 23;
function pick(alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i += 1) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    s += alphabet[seed % alphabet.length];
  }
  return s;
}

export interface SecretShape {
  readonly rule: string;
  readonly line: string;
  readonly secret: string;
}

function shape(rule: string, secret: string, line: (s: string) => string = (s) => s): SecretShape {
  return { rule, secret, line: line(secret) };
}

export const SECRET_SHAPES: readonly SecretShape[] = [
  shape('anthropic-api-key', `sk-ant-api03-${pick(ALNUM + '_-', 93)}AA`, (s) => `ANTHROPIC_API_KEY=${s}`),
  shape('openai-api-key', `sk-proj-${pick(ALNUM, 20)}T3BlbkFJ${pick(ALNUM, 20)}`, (s) => `client = OpenAI(api_key="${s}")`),
  shape('aws-access-token', `AKIA${pick(UPPER + '234567', 16)}`, (s) => `aws_access_key_id = ${s}`),
  shape('aws-access-token (ASIA)', `ASIA${pick(UPPER + '234567', 16)}`),
  shape('aws secret access key (env)', pick(ALNUM + '/+', 40), (s) => `export AWS_SECRET_ACCESS_KEY=${s}`),
  shape('aws secret access key (ini)', pick(ALNUM, 40), (s) => `aws_secret_access_key = ${s}`),
  shape('github-pat', `ghp_${pick(ALNUM, 36)}`, (s) => `git clone https://${s}@github.com/o/r`),
  shape('github-fine-grained-pat', `github_pat_${pick(ALNUM + '_', 82)}`),
  shape('github-app-token', `ghs_${pick(ALNUM, 36)}`, (s) => `https://x-access-token:${s}@github.com/o/r.git`),
  shape('gitlab-pat', `glpat-${pick(ALNUM + '_-', 20)}`),
  shape('slack-bot-token', `xoxb-${pick(DIGITS, 12)}-${pick(DIGITS, 12)}-${pick(ALNUM, 24)}`),
  shape('slack-webhook-url', `hooks.slack.com/services/T${pick(UPPER + DIGITS, 8)}/B${pick(UPPER + DIGITS, 8)}/${pick(ALNUM, 24)}`, (s) => `curl https://${s}`),
  shape('stripe-access-token', `sk_live_${pick(ALNUM, 24)}`),
  shape('gcp-api-key', `AIza${pick(ALNUM + '_-', 35)}`),
  shape('npm-access-token', `npm_${pick(ALNUM, 36)}`, (s) => `//registry.npmjs.org/:_authToken=${s}`),
  shape('pypi-upload-token', `pypi-AgEIcHlwaS5vcmc${pick(ALNUM + '_-', 60)}`),
  shape('huggingface-access-token', `hf_${pick(LOWER + UPPER, 34)}`),
  shape('sendgrid-api-token', `SG.${pick(ALNUM + '_-', 22)}.${pick(ALNUM + '_-', 43)}`),
  shape('digitalocean-pat', `dop_v1_${pick(HEX, 64)}`),
  shape('shopify-access-token', `shpat_${pick(HEX, 32)}`),
  shape('databricks-api-token', `dapi${pick(HEX, 32)}`),
  shape('linear-api-key', `lin_api_${pick(ALNUM, 40)}`),
  shape('postman-api-token', `PMAK-${pick(HEX, 24)}-${pick(HEX, 34)}`),
  shape('age-secret-key', `AGE-SECRET-KEY-1${pick('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}`),
  shape('jwt', `eyJhbGciOiJIUzI1NiJ9.eyJ${pick(ALNUM, 30)}.${pick(ALNUM + '_-', 43)}`, (s) => `Cookie: session=${s}`),
  shape('private-key', `-----BEGIN OPENSSH PRIVATE KEY-----\n${pick(ALNUM + '+/', 70)}\n${pick(ALNUM + '+/', 70)}\n-----END OPENSSH PRIVATE KEY-----`),
  shape('curl-auth-header (Bearer)', pick(ALNUM + '._-', 32), (s) => `curl -H "Authorization: Bearer ${s}" https://api.example.com`),
  shape('curl-auth-header (Basic)', Buffer.from(`deploy:${pick(ALNUM, 16)}`).toString('base64'), (s) => `Authorization: Basic ${s}`),
  // generic-api-key: a value assigned to a name that says it is a secret, in the shapes issue 23 names.
  shape('generic: JSON "api_key"', pick(ALNUM, 28), (s) => `{"api_key": "${s}", "region": "eu"}`),
  shape('generic: JSON "client_secret"', pick(ALNUM, 24), (s) => `{ "client_id": "abc", "client_secret":"${s}" }`),
  shape('generic: PGPASSWORD=', `${pick(LOWER, 6)}!${pick(DIGITS, 3)}`, (s) => `PGPASSWORD=${s} psql -h db -U app`),
  shape('generic: *_ACCESS_KEY=', pick(ALNUM, 32), (s) => `MINIO_ACCESS_KEY=${s}`),
  shape('generic: *_KEY=', pick(ALNUM, 20), (s) => `STRIPE_WEBHOOK_KEY=${s}`),
  shape('generic: *_PAT=', pick(ALNUM, 30), (s) => `AZURE_DEVOPS_PAT=${s}`),
  shape('generic: SSH_PRIVATE_KEY=', pick(ALNUM, 30), (s) => `SSH_PRIVATE_KEY='${s}'`),
  shape('generic: yaml password', `${pick(LOWER, 5)}${pick(DIGITS, 4)}`, (s) => `  password: ${s}`),
  shape('generic: --password=', pick(ALNUM, 12), (s) => `mysql --password=${s} -u root`),
  shape('generic: token query', pick(ALNUM, 24), (s) => `GET /hook?token=${s}&x=1`),
  shape('password in URL (postgres)', `${pick(LOWER, 4)}${pick(DIGITS, 4)}`, (s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/app`),
  shape('password in URL (redis)', pick(ALNUM, 16), (s) => `redis://:${s}@cache:6379/0`),
  shape('high-entropy token (no known prefix)', pick(ALNUM, 48), (s) => `the key is ${s}`),
];

/** Ordinary text that must come through unchanged (redaction that eats everything protects nothing useful). */
export const NOT_SECRETS: readonly string[] = [
  'expected 2, got 3',
  'commit 3f786850e387550fdab836ed7e6dc881de23001b',
  'id 123e4567-e89b-12d3-a456-426614174000',
  'max_tokens: 1024',
  'input_tokens=512 output_tokens=20',
  'src/harness/permissions/read-only-command.test.ts:42:3',
  'password: ${DB_PASSWORD}',
  'token_count: 55',
  'PWD=/home/dev/project',
  'Authorization header missing',
];
