/** Editing a list's text (src/geo/ip-lists/edit.ts): pure functions, the same whichever store holds the text. */
import { entriesOfText, textWithEntry, textWithoutEntry } from '../../src/geo/ip-lists';

describe('textWithEntry', () => {
  it('when the list has no text yet, then it starts with a comment saying what it is, then the canonical entry', () => {
    expect(textWithEntry(undefined, 'tor', '185.220.101.1')).toBe(
      `# Trustgate IP list "tor": one IP address or CIDR block a line; '#' starts a comment.\n185.220.101.1/32\n`,
    );
  });

  it('when the text has lines, then the entry goes at the end, after a newline the text lacked', () => {
    expect(textWithEntry('# mine\n192.0.2.1/32', 'vpn', '2001:DB8::1')).toBe('# mine\n192.0.2.1/32\n2001:db8::1/128\n');
    expect(textWithEntry('', 'vpn', '192.0.2.9/24')).toBe('192.0.2.0/24\n');
  });

  it('when the block is on the list in any spelling, then there is nothing to change', () => {
    expect(textWithEntry('192.0.2.9 # seen\n', 'fraud', '192.0.2.9/32')).toBeUndefined();
    expect(textWithEntry('192.0.2.9\n', 'fraud', '::ffff:192.0.2.9')).toBeUndefined();
  });

  it('when the list or the entry is wrong, then it throws naming it', () => {
    expect(() => textWithEntry(undefined, 'bots' as never, '192.0.2.1')).toThrow(/unknown IP list "bots"/);
    expect(() => textWithEntry(undefined, 'tor', 'exit.example.org')).toThrow(/not an IP address or CIDR block/);
  });
});

describe('textWithoutEntry', () => {
  it('when the block is on the list, then every line holding it goes and the rest stays', () => {
    const text = '# mine\n192.0.2.9\n198.51.100.0/24 # office\n192.0.2.9/32 # again\n';
    expect(textWithoutEntry(text, 'proxy', '192.0.2.9')).toBe('# mine\n198.51.100.0/24 # office\n');
  });

  it('when it is not on the list, or there is no text, then there is nothing to change', () => {
    expect(textWithoutEntry('198.51.100.0/24\n', 'proxy', '192.0.2.9')).toBeUndefined();
    expect(textWithoutEntry(undefined, 'proxy', '192.0.2.9')).toBeUndefined();
  });
});

describe('entriesOfText', () => {
  it('when a text has entries, comments and bad lines, then the entries in canonical form and the bad lines by number', () => {
    expect(entriesOfText('# c\n10.1.2.3/8\n\nnot-an-ip\n2001:DB8::/32 # x\n')).toEqual({
      entries: ['10.0.0.0/8', '2001:db8::/32'],
      invalid: [{ line: 4, text: 'not-an-ip' }],
    });
    expect(entriesOfText(undefined)).toEqual({ entries: [], invalid: [] });
  });
});
