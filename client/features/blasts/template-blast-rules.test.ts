// The Cloud API blast form's checks: the server's order and messages, the values sent.
import { describe, expect, it } from 'vitest';
import type { ClientTemplate } from '#common/templates.ts';
import {
  parameterProblems,
  templateBlastProblem,
  templateBlastResolver,
  typedValues,
  type TemplateBlastValues,
} from './template-blast-rules.ts';

const promo: ClientTemplate = {
  id: 'promo',
  name: 'promo_bulanan',
  language: 'id',
  status: 'APPROVED',
  category: 'MARKETING',
  header: { format: 'IMAGE' },
  body: 'Halo {{1}}, nikmati diskon {{2}}!',
  footer: null,
  buttons: [],
  parameters: [
    { name: '1', part: 'body', placeholder: '1', example: 'Budi' },
    { name: '2', part: 'body', placeholder: '2', example: '20%' },
  ],
};
const tagihan: ClientTemplate = {
  ...promo,
  id: 'tagihan',
  name: 'pengingat_tagihan',
  header: null,
  body: 'Tagihan {{1}}',
  parameters: [{ name: '1', part: 'body', placeholder: '1', example: 'Rp150.000' }],
};
const context = { points: 2, templates: [promo, tagihan] };
const image = new File([new Uint8Array([1])], 'promo.png', { type: 'image/png' });
const values = (over: Partial<TemplateBlastValues> = {}): TemplateBlastValues => ({
  numbers: '081234567890',
  template_id: 'promo',
  parameters: { '1': 'Budi', '2': '20%' },
  image,
  ...over,
});

describe('parameterProblems', () => {
  it('checks each placeholder with the limit of its template', () => {
    expect(parameterProblems(promo, { '1': 'Budi\nSantoso', '2': 'a     b' })).toEqual({
      '1': 'Parameter tidak boleh berisi baris baru atau tab',
      '2': 'Parameter tidak boleh berisi lebih dari 4 spasi berturut-turut',
    });
    expect(parameterProblems(promo, { '1': 'x'.repeat(1025), '2': '' })).toEqual({
      '1': 'Parameter maksimal 1024 karakter',
      '2': 'Parameter tidak boleh kosong',
    });
    // The body is this template's only component: Meta takes more.
    expect(parameterProblems(tagihan, { '1': 'x'.repeat(1025) })).toEqual({ '1': null });
  });
});

describe('templateBlastProblem', () => {
  it("checks in the server's order: template, parameters, image, then the numbers", () => {
    expect(templateBlastProblem(values({ template_id: '' }), context)?.text).toBe(
      'Pilih template pesan',
    );
    expect(templateBlastProblem(values({ parameters: { '1': 'Budi' } }), context)).toEqual({
      field: 'parameters',
      rule: 'pattern',
      text: 'Parameter {{2}}: Parameter tidak boleh kosong',
    });
    expect(templateBlastProblem(values({ image: null }), context)).toEqual({
      field: 'image',
      rule: 'required',
      text: 'Template ini membutuhkan gambar header. Upload gambar terlebih dahulu.',
    });
    expect(templateBlastProblem(values({ numbers: '' }), context)?.field).toBe('numbers');
    expect(
      templateBlastProblem(values({ numbers: '081234567890 081234567891 081234567892' }), context)
        ?.rule,
    ).toBe('points');
    expect(templateBlastProblem(values(), context)).toBeNull();
  });
});

describe('templateBlastResolver', () => {
  it("sends the template's own values, and an image only for an image header", () => {
    const result = templateBlastResolver(
      values({
        template_id: 'tagihan',
        parameters: { '1': 'Rp150.000', '2': 'sisa template lain' },
        numbers: '081234567890, 6281234567890',
      }),
      context,
    );
    expect(result).toEqual({
      values: {
        template_id: 'tagihan',
        parameters: { '1': 'Rp150.000' },
        numbers: ['6281234567890'],
        image: null,
      },
      errors: {},
    });
    expect(templateBlastResolver(values(), context).values).toMatchObject({ image });
  });
});

describe('typedValues', () => {
  it('leaves out what is not typed yet, so the preview keeps its placeholder', () => {
    expect(typedValues({ '1': 'Budi', '2': '' })).toEqual({ '1': 'Budi' });
  });
});
