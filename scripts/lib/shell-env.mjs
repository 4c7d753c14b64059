// Prints the project's tool environment as `export` lines for a shell: scripts/env.sh evaluates it, so the versions
// and paths live only in tools.mjs. Runs on any Node >= 20 with no dependencies.
import { toolEnv } from './tools.mjs';

const env = toolEnv();
/** Single-quoted for sh: a quote inside ends the string, escapes one, and reopens it. @param {string} value */
const quote = (value) => `'${value.replaceAll("'", "'\\''")}'`;
const names = ['PATH', ...Object.keys(env).filter((name) => env[name] !== process.env[name] && name !== 'PATH')];
for (const name of names) process.stdout.write(`export ${name}=${quote(env[name] ?? '')}\n`);
