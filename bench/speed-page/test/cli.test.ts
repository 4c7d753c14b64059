import { describe, expect, it } from 'vitest';
import { OptionError, parseCli } from '../cli.mjs';

describe('parseCli', () => {
  it('defaults to the demo site, 5 runs, both profiles, every feature and third parties loaded', () => {
    expect(parseCli([])).toEqual({
      url: null,
      runs: 5,
      profiles: ['desktop', 'mobile'],
      features: ['images', 'priority', 'binast', 'all'],
      outDir: null,
      thirdParties: true,
      help: false,
    });
  });
  it('leaves third parties unreachable with --no-third-parties', () => {
    expect(parseCli(['--no-third-parties', 'https://example.com/']).thirdParties).toBe(false);
  });
  it('asks for help with --help or -h', () => {
    expect(parseCli(['--help']).help).toBe(true);
    expect(parseCli(['http://127.0.0.1:3000/', '-h']).help).toBe(true);
  });
  it('reads a URL and the options in any order', () => {
    const options = parseCli([
      '--runs',
      '3',
      'http://127.0.0.1:3000/blog/',
      '--profiles',
      'mobile',
      '--features',
      'images',
    ]);
    expect(options.url?.href).toBe('http://127.0.0.1:3000/blog/');
    expect(options).toMatchObject({ runs: 3, profiles: ['mobile'], features: ['images'] });
  });
  it('says what is wrong with bad input', () => {
    expect(() => parseCli(['--runs', '0'])).toThrow('--runs must be a whole number from 1 to 50');
    expect(() => parseCli(['--profiles', 'tablet'])).toThrow('unknown profile "tablet"');
    expect(() => parseCli(['--features', 'speed'])).toThrow('unknown feature "speed"');
    expect(() => parseCli(['example.com'])).toThrow('is not a URL');
    expect(() => parseCli(['file:///etc/passwd'])).toThrow('only http:// and https://');
    expect(() => parseCli(['--runs'])).toThrow('--runs needs a value');
    expect(() => parseCli(['--fast'])).toThrow('unknown option --fast');
    // Told apart from the site's and the lab's failures, which get no usage line.
    expect(() => parseCli(['--fast'])).toThrow(OptionError);
  });
});
