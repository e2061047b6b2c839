import { DEFAULT_QUERY, hasFilters, readQuery, toFilters, writeQuery } from './filters';

describe('history filters in the address', () => {
  it('reads every filter and the page', () => {
    expect(readQuery(new URLSearchParams('search=%20attic%20&status=failed&period=30&page=3&rows=50'))).toEqual({
      search: 'attic',
      status: 'failed',
      period: 30,
      page: 2,
      rowsPerPage: 50,
    });
  });

  it('ignores what it does not understand', () => {
    expect(readQuery(new URLSearchParams('status=deleted&period=14&page=-2&rows=7'))).toEqual(DEFAULT_QUERY);
    expect(readQuery(new URLSearchParams('page=abc&rows=1000'))).toEqual(DEFAULT_QUERY);
    expect(readQuery(new URLSearchParams(`search=${'x'.repeat(250)}`)).search).toHaveLength(200);
  });

  it('writes only what differs from the defaults, and reads back the same', () => {
    expect(writeQuery(DEFAULT_QUERY).toString()).toBe('');
    const query = { search: 'noite de verão', status: 'processing', period: 7, page: 1, rowsPerPage: 50 } as const;
    const params = writeQuery(query);
    expect(params.toString()).toBe('search=noite+de+ver%C3%A3o&status=processing&period=7&page=2&rows=50');
    expect(readQuery(params)).toEqual(query);
  });

  it('pages 100 rows by default, or the size the user chose last', () => {
    expect(DEFAULT_QUERY.rowsPerPage).toBe(100);
    expect(readQuery(new URLSearchParams(''), 25).rowsPerPage).toBe(25);
    expect(readQuery(new URLSearchParams('rows=50'), 25).rowsPerPage).toBe(50);
    expect(writeQuery({ ...DEFAULT_QUERY, rowsPerPage: 25 }, 25).toString()).toBe('');
    expect(writeQuery({ ...DEFAULT_QUERY, rowsPerPage: 100 }, 25).toString()).toBe('rows=100');
  });

  it('sends only the filters that are set', () => {
    expect(toFilters(DEFAULT_QUERY)).toEqual({});
    expect(toFilters({ ...DEFAULT_QUERY, search: 'attic', status: 'published', period: 90 })).toEqual({
      search: 'attic',
      status: 'published',
      date_range: 90,
    });
    expect(hasFilters(DEFAULT_QUERY)).toBe(false);
    expect(hasFilters({ ...DEFAULT_QUERY, page: 3 })).toBe(false);
    expect(hasFilters({ ...DEFAULT_QUERY, period: 7 })).toBe(true);
  });
});
