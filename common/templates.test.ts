// How Meta's template components read: header, body, footer, the body's placeholders with their
// examples; the text a recipient reads; and the rules a parameter's value must meet.
import { describe, expect, it } from 'vitest';
import {
  buttonUrl,
  MAX_BODY_ONLY_PARAMETER_LENGTH,
  MAX_PARAMETER_LENGTH,
  parameterLimit,
  placeholders,
  recipientText,
  renderTemplate,
  templateParameterProblem,
  templateStatusLabel,
  templateValuesProblem,
  templateView,
  unsupportedPart,
} from './templates.ts';

const base = { id: '1', name: 't', language: 'id', status: 'APPROVED', category: 'MARKETING' };

describe('templateView', () => {
  it('reads an image header, a positional body with its examples, no footer', () => {
    const view = templateView({
      ...base,
      components: [
        { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['https://x/y.jpg'] } },
        {
          type: 'BODY',
          text: 'Halo {{1}}, nikmati diskon {{2}} untuk semua produk bulan ini!',
          example: { body_text: [['Budi', '20%']] },
        },
      ],
    });
    expect(view).toEqual({
      ...base,
      header: { format: 'IMAGE' },
      body: 'Halo {{1}}, nikmati diskon {{2}} untuk semua produk bulan ini!',
      footer: null,
      buttons: [],
      parameters: [
        { name: '1', part: 'body', placeholder: '1', example: 'Budi' },
        { name: '2', part: 'body', placeholder: '2', example: '20%' },
      ],
    });
  });

  it('reads named parameters, a text header and a footer', () => {
    const view = templateView({
      ...base,
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Selamat datang' },
        {
          type: 'BODY',
          text: 'Halo {{nama}}, pesanan {{nomor}} siap. Terima kasih, {{nama}}!',
          example: { body_text_named_params: [{ param_name: 'nama', example: 'Siti' }] },
        },
        { type: 'FOOTER', text: 'Toko Sebar' },
        { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Oke' }] },
      ],
    });
    expect(view.header).toEqual({ format: 'TEXT', text: 'Selamat datang' });
    expect(view.footer).toBe('Toko Sebar');
    // Each placeholder once, in order; one without an example has none.
    expect(view.parameters).toEqual([
      { name: 'nama', part: 'body', placeholder: 'nama', example: 'Siti' },
      { name: 'nomor', part: 'body', placeholder: 'nomor', example: null },
    ]);
    expect(view.buttons).toEqual([{ type: 'QUICK_REPLY', text: 'Oke', url: null }]);
  });

  it('reads a text header’s placeholder and a URL button’s, each with its own key and example', () => {
    const view = templateView({
      ...base,
      components: [
        {
          type: 'HEADER',
          format: 'TEXT',
          text: 'Promo {{1}}',
          example: { header_text: ['Kilat'] },
        },
        {
          type: 'BODY',
          text: 'Halo {{1}}, kode Anda {{2}}.',
          example: { body_text: [['Budi', 'HEMAT']] },
        },
        {
          type: 'BUTTONS',
          buttons: [
            { type: 'QUICK_REPLY', text: 'Berhenti' },
            {
              type: 'URL',
              text: 'Lihat promo',
              url: 'https://toko.example/promo/{{1}}',
              example: ['https://toko.example/promo/kilat-123'],
            },
          ],
        },
      ],
    });
    expect(view.parameters).toEqual([
      { name: 'header.1', part: 'header', placeholder: '1', example: 'Kilat' },
      { name: '1', part: 'body', placeholder: '1', example: 'Budi' },
      { name: '2', part: 'body', placeholder: '2', example: 'HEMAT' },
      { name: 'button.1', part: 'button', placeholder: '1', example: 'kilat-123' },
    ]);
    expect(view.buttons).toEqual([
      { type: 'QUICK_REPLY', text: 'Berhenti', url: null },
      { type: 'URL', text: 'Lihat promo', url: 'https://toko.example/promo/{{1}}' },
    ]);
    const values = { 'header.1': 'Kilat', '1': 'Budi', '2': 'HEMAT', 'button.1': 'k-9' };
    expect(recipientText(view, values)).toBe('Promo Kilat\n\nHalo Budi, kode Anda HEMAT.');
    expect(buttonUrl(view.buttons[1]!.url!, 1, values)).toBe('https://toko.example/promo/k-9');
    expect(templateValuesProblem(view, values)).toBeNull();
  });

  it('reads a named header placeholder’s example', () => {
    const view = templateView({
      ...base,
      components: [
        {
          type: 'HEADER',
          format: 'TEXT',
          text: 'Untuk {{nama}}',
          example: { header_text_named_params: [{ param_name: 'nama', example: 'Siti' }] },
        },
        { type: 'BODY', text: 'Terima kasih.' },
      ],
    });
    expect(view.parameters).toEqual([
      { name: 'header.nama', part: 'header', placeholder: 'nama', example: 'Siti' },
    ]);
  });

  it('copes with components Meta never sends: missing, not a list, odd entries', () => {
    for (const components of [undefined, null, 'x', [null, 3, { type: 'BODY' }]]) {
      expect(templateView({ ...base, components })).toMatchObject({
        header: null,
        body: '',
        footer: null,
        buttons: [],
        parameters: [],
      });
    }
  });
});

describe('placeholders and renderTemplate', () => {
  it('finds each placeholder once, spaces inside the braces allowed', () => {
    expect(placeholders('{{1}} {{ 2 }} {{1}} {{nama_depan}} {x} {{}}')).toEqual([
      '1',
      '2',
      'nama_depan',
    ]);
  });

  it('fills every occurrence and leaves an unfilled placeholder as written', () => {
    expect(renderTemplate('Halo {{1}}, diskon {{2}}. Sampai jumpa {{1}}!', { 1: 'Budi' })).toBe(
      'Halo Budi, diskon {{2}}. Sampai jumpa Budi!',
    );
    expect(renderTemplate('Halo {{nama}}', { nama: '$& {{1}}' })).toBe('Halo $& {{1}}');
    expect(renderTemplate('Halo {{constructor}}', {})).toBe('Halo {{constructor}}');
  });
});

describe('templateParameterProblem', () => {
  it('accepts ordinary text, four spaces in a row and exactly the limit', () => {
    expect(templateParameterProblem('Budi Santoso')).toBeNull();
    expect(templateParameterProblem('a    b')).toBeNull();
    expect(templateParameterProblem('x'.repeat(MAX_PARAMETER_LENGTH))).toBeNull();
    // Characters, not UTF-16 units: an emoji counts once.
    expect(templateParameterProblem('😀'.repeat(MAX_PARAMETER_LENGTH))).toBeNull();
  });

  it('says in Indonesian what Meta would refuse', () => {
    expect(templateParameterProblem('')).toBe('Parameter tidak boleh kosong');
    expect(templateParameterProblem('  ')).toBe('Parameter tidak boleh kosong');
    expect(templateParameterProblem('x'.repeat(MAX_PARAMETER_LENGTH + 1))).toBe(
      'Parameter maksimal 1024 karakter',
    );
    for (const value of ['a\nb', 'a\r\nb', 'a\tb']) {
      expect(templateParameterProblem(value)).toBe(
        'Parameter tidak boleh berisi baris baru atau tab',
      );
    }
    expect(templateParameterProblem('a     b')).toBe(
      'Parameter tidak boleh berisi lebih dari 4 spasi berturut-turut',
    );
  });

  it('allows longer parameters when the body is the template’s only component', () => {
    const bodyOnly = templateView({ ...base, components: [{ type: 'BODY', text: '{{1}}' }] });
    expect(parameterLimit(bodyOnly)).toBe(MAX_BODY_ONLY_PARAMETER_LENGTH);
    expect(parameterLimit({ header: null, footer: 'Toko', buttons: [] })).toBe(
      MAX_PARAMETER_LENGTH,
    );
    const withButton = {
      header: null,
      footer: null,
      buttons: [{ type: 'URL', text: 'x', url: 'https://x' }],
    };
    expect(parameterLimit(withButton)).toBe(MAX_PARAMETER_LENGTH);
    expect(templateParameterProblem('x'.repeat(2000), parameterLimit(bodyOnly))).toBeNull();
  });
});

describe('templateValuesProblem', () => {
  const view = templateView({
    ...base,
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Promo {{1}}' },
      { type: 'BODY', text: 'Halo {{1}}' },
      {
        type: 'BUTTONS',
        buttons: [{ type: 'URL', text: 'Lihat', url: 'https://x.example/{{1}}' }],
      },
    ],
  });
  const ok = { 'header.1': 'Kilat', '1': 'Budi', 'button.0': 'a-1' };

  it('names the value by where it is in the template, header and button included', () => {
    expect(templateValuesProblem(view, { ...ok, 'header.1': 'x'.repeat(61) })).toBe(
      'Parameter header {{1}}: Parameter maksimal 60 karakter',
    );
    expect(templateValuesProblem(view, { ...ok, 'header.1': 'x'.repeat(60) })).toBeNull();
    expect(templateValuesProblem(view, { ...ok, 'button.0': 'promo kilat' })).toBe(
      'Parameter akhiran URL tombol Lihat: Akhiran URL tidak boleh berisi spasi',
    );
    expect(templateValuesProblem(view, { ...ok, 'button.0': '' })).toBe(
      'Parameter akhiran URL tombol Lihat: Parameter tidak boleh kosong',
    );
    expect(templateValuesProblem(view, { '1': 'Budi', 'button.0': 'a' })).toBe(
      'Parameter header {{1}}: Parameter tidak boleh kosong',
    );
    expect(templateValuesProblem(view, { ...ok, 'button.1': 'b' })).toBe(
      'Parameter {{button.1}} tidak ada di template ini',
    );
  });
});

describe('templateStatusLabel', () => {
  it('names Meta’s statuses in Indonesian and shows an unknown one as it is', () => {
    expect(['APPROVED', 'PENDING', 'REJECTED', 'IN_APPEAL'].map(templateStatusLabel)).toEqual([
      'Disetujui',
      'Menunggu',
      'Ditolak',
      'IN_APPEAL',
    ]);
  });
});

describe('unsupportedPart', () => {
  const body = { type: 'BODY', text: 'Halo {{1}}' };
  it('finds nothing in what a blast fills: a body, an image or text header, URL and fixed buttons', () => {
    expect(unsupportedPart([body])).toBeNull();
    expect(unsupportedPart([{ type: 'HEADER', format: 'IMAGE' }, body])).toBeNull();
    expect(unsupportedPart([{ type: 'HEADER', format: 'TEXT', text: 'Promo' }, body])).toBeNull();
    expect(
      unsupportedPart([{ type: 'HEADER', format: 'TEXT', text: 'Hai {{1}}' }, body]),
    ).toBeNull();
    const buttons = [
      { type: 'QUICK_REPLY', text: 'Ya' },
      { type: 'URL', text: 'Buka', url: 'https://toko.example/promo' },
      { type: 'URL', text: 'Lacak', url: 'https://toko.example/lacak/{{1}}' },
      { type: 'PHONE_NUMBER', text: 'Telepon', phone_number: '+62211234567' },
    ];
    expect(
      unsupportedPart([body, { type: 'FOOTER', text: 'x' }, { type: 'BUTTONS', buttons }]),
    ).toBeNull();
  });

  it('names the first part that would need a value a blast does not give', () => {
    const cases: [unknown[], string][] = [
      [[{ type: 'HEADER', format: 'VIDEO' }, body], 'header video'],
      [[{ type: 'HEADER', format: 'DOCUMENT' }, body], 'header dokumen'],
      [[{ type: 'HEADER', format: 'LOCATION' }, body], 'header lokasi'],
      [[body, { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE' }] }], 'tombol COPY_CODE'],
      [[body, { type: 'BUTTONS', buttons: [{ type: 'otp' }] }], 'tombol OTP'],
      [[body, { type: 'BUTTONS', buttons: [{ type: 'FLOW' }] }], 'tombol FLOW'],
      [[body, { type: 'CAROUSEL', cards: [] }], 'komponen CAROUSEL'],
    ];
    for (const [components, part] of cases) expect(unsupportedPart(components)).toBe(part);
  });
});
