import { describe, expect, test } from 'vitest';
import { isLoopbackHost } from '../../src/domain/loopback.js';

describe('isLoopbackHost: one rule for config (a URL hostname) and the emulator (an address to listen on)', () => {
  test.each(['localhost', 'LocalHost', '127.0.0.1', '127.1.2.3', '::1', '[::1]'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  test.each([
    '0.0.0.0',
    '128.0.0.1',
    '127.0.0',
    'localhost.example.com',
    '::',
    '[::]',
    '::ffff:7f00:1',
    '10.0.0.1',
    '',
  ])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});
