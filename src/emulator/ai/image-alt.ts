/**
 * Alternative text for an image URL (spec 10), derived deterministically from the file name:
 * "https://cdn.example/img/oxford-shirt-blue.jpg" => "Product photo: Oxford shirt (oxford shirt blue)".
 */
import { findProducts, type Catalogue } from './catalogue.js';

const IMAGE_URL_PATTERN = /\.(?:jpe?g|png|gif|webp)$/i;

/** True when the URL parses, is http(s) and its path ends in a supported extension. */
export function isSupportedImageUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return (u.protocol === 'http:' || u.protocol === 'https:') && IMAGE_URL_PATTERN.test(u.pathname);
}

export function imageAltText(url: string, catalogue: Catalogue): string {
  let file = url;
  try {
    file = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    // keep the raw text
  }
  const words = file
    .replace(IMAGE_URL_PATTERN, '')
    .replace(/[-_.+]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const products = findProducts(words, catalogue);
  if (products.length > 0) {
    const names = [...new Set(products.map((p) => p.product.name))].join(' and ');
    return `Product photo: ${names}${words ? ` (${words})` : ''}`;
  }
  return words ? `Photo: ${words}` : 'Photo';
}
