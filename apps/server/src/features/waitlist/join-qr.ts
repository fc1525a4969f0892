import QRCode from 'qrcode';

/**
 * The join link's QR code, PNG and SVG, kept per link in memory (issue 24: drawing the PNG cost ~45 ms of CPU
 * on every anonymous request). A bounded LRU: the most recently asked `max` codes stay; a code being drawn is
 * shared by the requests that ask for it meanwhile. A link's URL never changes, so an entry never goes stale.
 */
export function createQrCodes(options: { max: number }) {
  const cache = new Map<string, Promise<Buffer | string>>();

  function remembered<T extends Buffer | string>(key: string, draw: () => Promise<T>): Promise<T> {
    const hit = cache.get(key);
    if (hit) {
      // Most recently used goes last; the first key is the one to drop.
      cache.delete(key);
      cache.set(key, hit);
      return hit as Promise<T>;
    }
    const drawing = draw();
    cache.set(key, drawing);
    drawing.catch(() => cache.delete(key));
    while (cache.size > options.max) cache.delete(cache.keys().next().value!);
    return drawing;
  }

  return {
    png: (url: string) =>
      remembered(`png:${url}`, () =>
        QRCode.toBuffer(url, { type: 'png', margin: 2, width: 600, errorCorrectionLevel: 'M' }),
      ),
    svg: (url: string) =>
      remembered(`svg:${url}`, () =>
        QRCode.toString(url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' }),
      ),
    /** How many codes are kept (tests). */
    get size() {
      return cache.size;
    },
  };
}
export type QrCodes = ReturnType<typeof createQrCodes>;
