import { spawn } from 'node:child_process';
import { StepError } from './log.mjs';

/**
 * Runs a command, streaming its output unless `quiet`, and resolves with its exit code and captured output.
 * Never rejects for a non-zero exit: callers decide whether that is fatal (a failing test suite is not).
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, quiet?: boolean }} [options]
 * @returns {Promise<{ code: number, output: string }>}
 */
export function exec(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (/** @type {Buffer} */ chunk, /** @type {NodeJS.WriteStream} */ sink) => {
      output += chunk.toString();
      if (!options.quiet) sink.write(chunk);
    };
    child.stdout.on('data', (chunk) => collect(chunk, process.stdout));
    child.stderr.on('data', (chunk) => collect(chunk, process.stderr));
    child.on('error', (error) => reject(new StepError(`could not start ${command}: ${error.message}`)));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/**
 * Like exec, but a non-zero exit is a StepError carrying the tail of the output.
 * @param {string} command
 * @param {string[]} args
 * @param {{ env?: NodeJS.ProcessEnv, cwd?: string, quiet?: boolean, hint?: string }} [options]
 */
export async function mustExec(command, args, options = {}) {
  const result = await exec(command, args, options);
  if (result.code !== 0) {
    const tail = options.quiet ? `\n${result.output.trim().split('\n').slice(-15).join('\n')}` : '';
    throw new StepError(`\`${[command, ...args].join(' ')}\` exited with code ${result.code}${tail}`, options.hint);
  }
  return result;
}
