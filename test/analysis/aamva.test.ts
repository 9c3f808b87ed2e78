import { aamvaDate, dateOrder, parseAamva } from '../../src/analysis/document/aamva';
import { buildAamva, CALIFORNIA, ONTARIO } from './fixtures/aamva';

const check = (result: ReturnType<typeof parseAamva>, name: string) =>
  result.checks.find((c) => c.name === name)?.passed;

describe('parseAamva', () => {
  it('when a US licence is read, then its fields come out with US dates (MMDDCCYY) as ISO dates', () => {
    const result = parseAamva(buildAamva(CALIFORNIA));
    expect(result.header).toEqual({
      fileType: 'ANSI ',
      iin: '636014',
      version: 10,
      jurisdictionVersion: 1,
      entries: 2,
    });
    expect(result.fields).toEqual({
      firstName: 'ALEXANDRA',
      lastName: 'SAMPLE',
      dateOfBirth: '1990-08-31',
      dateOfExpiration: '2029-08-31',
      dateOfIssue: '2021-08-31',
      idNumber: 'I1234568',
      idNumber2: '08/31/2021628E1/AAFD/29',
      address: { street: '2570 24TH STREET', city: 'ANYTOWN', state: 'CA', postalCode: '95822', country: 'US' },
      countryCode: 'US',
      state: 'CA',
      templateType: 'driver_license',
    });
    expect(result.checks.every((c) => c.passed)).toBe(true);
    expect(result.checks.map((c) => c.name)).toEqual([
      'aamva_header',
      'aamva_subfile_directory',
      'aamva_subfile_offsets',
      'aamva_subfile_lengths',
      'aamva_mandatory_elements',
      'aamva_dates_valid',
      'dates_consistent',
    ]);
  });

  it('when a Canadian licence is read, then its dates are read in the Canadian order (CCYYMMDD)', () => {
    const result = parseAamva(buildAamva(ONTARIO));
    expect(result.fields).toMatchObject({
      dateOfBirth: '1985-04-12',
      dateOfIssue: '2025-01-15',
      dateOfExpiration: '2030-01-15',
      countryCode: 'CA',
      state: 'ON',
      address: { postalCode: 'M5H 2N2', country: 'CA', city: 'TORONTO' },
      idNumber: 'T1234-56789-50412',
      idNumber2: 'AB1234567',
    });
    expect(result.checks.every((c) => c.passed)).toBe(true);
  });

  it('when the card names no country, then a Canadian IIN chooses the Canadian date order and the country', () => {
    const { DCG: _dropped, ...elements } = ONTARIO.elements;
    const result = parseAamva(buildAamva({ ...ONTARIO, elements }));
    expect(result.fields).toMatchObject({ dateOfBirth: '1985-04-12', countryCode: 'CA', address: { country: '' } });
  });

  it('when the card is an ID card, then the template is state_id (a US or Canadian identity card)', () => {
    expect(parseAamva(buildAamva({ ...CALIFORNIA, type: 'ID' })).fields?.templateType).toBe('state_id');
  });

  it('when fields are missing, then they are empty strings or null and the mandatory-elements check fails', () => {
    const result = parseAamva(buildAamva({ elements: { DCS: 'DOE', DBA: '01012030', DCG: 'USA' } }));
    expect(result.fields).toMatchObject({
      firstName: '',
      lastName: 'DOE',
      dateOfBirth: null,
      dateOfIssue: null,
      dateOfExpiration: '2030-01-01',
      idNumber: '',
      idNumber2: null,
      address: { street: '', city: '', state: '', postalCode: '', country: 'US' },
    });
    expect(check(result, 'aamva_mandatory_elements')).toBe(false);
    expect(check(result, 'aamva_header')).toBe(true);
    // One date only: no consistency check can be made, so none is claimed.
    expect(check(result, 'dates_consistent')).toBeUndefined();
  });

  it('when a date is not a real date, then it is null and the date check fails', () => {
    const result = parseAamva(buildAamva({ ...CALIFORNIA, elements: { ...CALIFORNIA.elements, DBB: '02301990' } }));
    expect(result.fields?.dateOfBirth).toBeNull();
    expect(check(result, 'aamva_dates_valid')).toBe(false);
  });

  it('when the issue date is after the expiry, then dates_consistent fails', () => {
    const result = parseAamva(buildAamva({ ...CALIFORNIA, elements: { ...CALIFORNIA.elements, DBD: '09012030' } }));
    expect(check(result, 'dates_consistent')).toBe(false);
    expect(check(result, 'aamva_dates_valid')).toBe(true);
  });

  it('when the header is broken, then the header check fails and no fields are claimed from data that is not AAMVA', () => {
    const result = parseAamva('hello world DAQ123');
    expect(result.fields).toBeNull();
    expect(result.checks).toEqual([{ name: 'aamva_header', passed: false }]);
  });

  it('when the header is damaged but the DL subfile is intact, then the fields are read and the header check fails', () => {
    const data = buildAamva(CALIFORNIA).replace('ANSI 636014', 'ANSX 636014');
    const result = parseAamva(data);
    expect(check(result, 'aamva_header')).toBe(false);
    expect(result.fields?.lastName).toBe('SAMPLE');
  });

  it('when a subfile offset is wrong, then the offsets check fails and the subfile is still found', () => {
    const data = buildAamva(CALIFORNIA);
    // The DL entry's offset, one byte too far.
    const entry = /DL(\d{4})(\d{4})/.exec(data)!;
    const broken = data.replace(entry[0], `DL${String(Number(entry[1]) + 1).padStart(4, '0')}${entry[2]}`);
    const result = parseAamva(broken);
    expect(check(result, 'aamva_subfile_offsets')).toBe(false);
    expect(check(result, 'aamva_subfile_lengths')).toBe(false);
    expect(result.fields?.idNumber).toBe('I1234568');
  });

  it('when a subfile length is wrong, then the lengths check fails', () => {
    const data = buildAamva(CALIFORNIA);
    const entry = /ZC(\d{4})(\d{4})/.exec(data)!;
    const broken = data.replace(entry[0], `ZC${entry[1]}${String(Number(entry[2]) - 3).padStart(4, '0')}`);
    const result = parseAamva(broken);
    expect(check(result, 'aamva_subfile_offsets')).toBe(true);
    expect(check(result, 'aamva_subfile_lengths')).toBe(false);
  });

  it('when the directory announces more entries than it has, then the directory check fails', () => {
    const data = buildAamva(CALIFORNIA).replace(/^(@\n\x1e\rANSI 6360141001)02/, '$103');
    expect(check(parseAamva(data), 'aamva_subfile_directory')).toBe(false);
  });

  it('when a version 01 card is read, then its header has no jurisdiction version and its dates are CCYYMMDD', () => {
    const data = buildAamva({
      version: 1,
      iin: '636014',
      elements: { DAQ: 'A1', DAA: 'DOE,JOHN,Q', DBB: '19700102', DBA: '20300102', DBD: '20200102' },
    });
    const result = parseAamva(data);
    expect(result.header).toMatchObject({ version: 1, jurisdictionVersion: null, entries: 1 });
    expect(result.fields).toMatchObject({
      lastName: 'DOE',
      firstName: 'JOHN',
      dateOfBirth: '1970-01-02',
      countryCode: null,
    });
    expect(result.checks.every((c) => c.passed)).toBe(true);
  });
});

describe('aamvaDate and dateOrder', () => {
  it('reads both orders and refuses what is not a date', () => {
    expect(aamvaDate('12311999', 'MMDDCCYY')).toBe('1999-12-31');
    expect(aamvaDate('19991231', 'CCYYMMDD')).toBe('1999-12-31');
    expect(aamvaDate('02292001', 'MMDDCCYY')).toBeNull();
    expect(aamvaDate('02292000', 'MMDDCCYY')).toBe('2000-02-29');
    expect(aamvaDate('1231199', 'MMDDCCYY')).toBeNull();
    expect(aamvaDate('', 'MMDDCCYY')).toBeNull();
    expect(aamvaDate(undefined, 'CCYYMMDD')).toBeNull();
    expect(aamvaDate('19991231', 'MMDDCCYY')).toBeNull();
  });

  it('chooses the order by version, then country, then IIN', () => {
    expect(dateOrder(1, 'USA', '636014')).toBe('CCYYMMDD');
    expect(dateOrder(9, 'USA', '636012')).toBe('MMDDCCYY');
    expect(dateOrder(9, 'CAN', '636014')).toBe('CCYYMMDD');
    expect(dateOrder(9, undefined, '636012')).toBe('CCYYMMDD');
    expect(dateOrder(9, undefined, '636014')).toBe('MMDDCCYY');
  });
});
