/** pdfkit's PDFDocument constructor (the module's `export =`). */
type PdfKit = typeof import('pdfkit');

let loading: Promise<PdfKit> | null = null;

/**
 * pdfkit, imported on the first PDF rather than at start: it costs about 250 ms and 30 MB to
 * load, and a server that issues no certificate and serves no plan document never needs it.
 */
export function pdfKit(): Promise<PdfKit> {
  loading ??= import('pdfkit').then((module) => module.default);
  return loading;
}
