// A throwaway TLS certificate for the labs' HTTP/2 fronts (browsers only speak h2 over TLS; the labs' Chromium runs
// with --ignore-certificate-errors). Valid one day, written into the run's own folder.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * @param {string} dir where cert.pem and key.pem are written
 * @param {string} commonName the certificate's CN, naming the lab that made it
 * @returns {{ cert: string, key: string }} the two files' paths
 */
export function selfSignedCert(dir, commonName) {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const subject = ['-subj', `/CN=${commonName}`, '-keyout', key, '-out', cert];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', ...subject], {
    stdio: 'ignore',
  });
  return { cert, key };
}
