import { mockApi, reply } from '../../testing';
import { downloadPublicationReport, filenameFromDisposition } from './report';

describe('filenameFromDisposition', () => {
  it('reads the plain and the extended forms', () => {
    expect(filenameFromDisposition('attachment; filename="publications-2025-03-09.csv"')).toBe('publications-2025-03-09.csv');
    expect(filenameFromDisposition('attachment; filename=report.csv')).toBe('report.csv');
    expect(filenameFromDisposition('attachment; filename="x.csv"; filename*=UTF-8\'\'publica%C3%A7%C3%B5es.csv')).toBe(
      'publicações.csv',
    );
    expect(filenameFromDisposition('attachment')).toBeNull();
    expect(filenameFromDisposition(null)).toBeNull();
  });
});

describe('downloadPublicationReport', () => {
  let clicked: { href: string; download: string }[];
  let click: jest.SpyInstance;

  beforeEach(() => {
    clicked = [];
    URL.createObjectURL = jest.fn(() => 'blob:http://localhost/report');
    URL.revokeObjectURL = jest.fn();
    click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
  });

  afterEach(() => click.mockRestore());

  it('sends the filters, the token and the language, and saves the file under the server’s name', async () => {
    const csv = '\uFEFFTítulo;Status\r\nA;Publicado\r\n';
    const server = mockApi({
      'GET /publications/report.csv': reply(200, csv, {
        contentType: 'text/csv; charset=utf-8',
        headers: { 'content-disposition': 'attachment; filename="publications-2025-03-09.csv"' },
      }),
    });

    const filename = await downloadPublicationReport(
      { status: 'failed', date_range: 7, search: 'sótão' },
      { token: 't-1', language: 'pt' },
    );

    expect(filename).toBe('publications-2025-03-09.csv');
    const [request] = server.calls('GET /publications/report.csv');
    expect(request.headers.get('authorization')).toBe('Bearer t-1');
    expect(request.headers.get('accept-language')).toBe('pt');
    expect(Object.fromEntries(request.url.searchParams)).toEqual({ status: 'failed', date_range: '7', search: 'sótão' });
    expect(clicked).toEqual([{ href: 'blob:http://localhost/report', download: 'publications-2025-03-09.csv' }]);
    const blob = (URL.createObjectURL as jest.Mock).mock.calls[0][0] as Blob;
    // Byte for byte, the BOM included (Excel needs it to read UTF-8).
    expect([...new Uint8Array(await blob.arrayBuffer()).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(await blob.text()).toBe(csv.slice(1));
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it('rejects with the server’s detail, else the status line', async () => {
    mockApi({ 'GET /publications/report.csv': reply(422, { detail: 'Invalid period' }) });
    await expect(downloadPublicationReport({}, { token: 't-1' })).rejects.toMatchObject({
      status: 422,
      message: 'Invalid period',
    });

    mockApi({ 'GET /publications/report.csv': reply(500, 'boom', { contentType: 'text/plain' }) });
    await expect(downloadPublicationReport({}, { token: 't-1' })).rejects.toMatchObject({
      status: 500,
      message: 'HTTP 500: Internal Server Error',
    });
    expect(clicked).toEqual([]);
  });
});
