import { type Element, xml2js } from 'xml-js';

/**
 * The XML of the local calendar's CalDAV answers (RFC 4918 multistatus, RFC 4791, RFC 6578) and the reading of
 * its requests, namespace-aware: a client may spell `DAV:` with any prefix, so elements are matched by
 * namespace and local name, never by the prefix it chose.
 */

export const DAV = 'DAV:';
export const CALDAV = 'urn:ietf:params:xml:ns:caldav';
export const CALSERVER = 'http://calendarserver.org/ns/';

export interface XmlNode {
  ns: string;
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

function toNode(element: Element, scope: Record<string, string>): XmlNode {
  const attributes: Record<string, string> = {};
  const inScope = { ...scope };
  for (const [key, value] of Object.entries(element.attributes ?? {})) {
    if (key === 'xmlns') inScope[''] = String(value);
    else if (key.startsWith('xmlns:')) inScope[key.slice(6)] = String(value);
    else attributes[key] = String(value);
  }
  const qualified = element.name ?? '';
  const colon = qualified.indexOf(':');
  const prefix = colon === -1 ? '' : qualified.slice(0, colon);
  const children: XmlNode[] = [];
  let text = '';
  for (const child of element.elements ?? []) {
    if (child.type === 'element') children.push(toNode(child, inScope));
    else if (child.type === 'text' || child.type === 'cdata') text += String(child.text ?? child.cdata ?? '');
  }
  return {
    ns: inScope[prefix] ?? '',
    name: colon === -1 ? qualified : qualified.slice(colon + 1),
    attributes,
    children,
    text,
  };
}

/** The document's root element, or null when the text is empty or not XML. */
export function parseXml(text: string): XmlNode | null {
  if (text.trim() === '') return null;
  try {
    const document = xml2js(text, { compact: false, trim: true }) as Element;
    const root = document.elements?.find((element) => element.type === 'element');
    return root ? toNode(root, {}) : null;
  } catch {
    return null;
  }
}

export const child = (node: XmlNode | null | undefined, ns: string, name: string) =>
  node?.children.find((candidate) => candidate.ns === ns && candidate.name === name);

export const escapeXml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const PREFIXES: Record<string, string> = { [DAV]: 'D', [CALDAV]: 'C', [CALSERVER]: 'CS' };
const NAMESPACES = `xmlns:D="${DAV}" xmlns:C="${CALDAV}" xmlns:CS="${CALSERVER}"`;

/** An element of a known namespace with its prefix, or of any other with the namespace declared on it. */
function tag(ns: string, name: string): { open: string; close: string } {
  const prefix = PREFIXES[ns];
  if (prefix) return { open: `${prefix}:${name}`, close: `${prefix}:${name}` };
  return { open: `X:${name} xmlns:X="${escapeXml(ns)}"`, close: `X:${name}` };
}

/** `<ns:name>inner</ns:name>`, or `<ns:name/>` when there is nothing inside. */
export function element(ns: string, name: string, inner = ''): string {
  const { open, close } = tag(ns, name);
  return inner === '' ? `<${open}/>` : `<${open}>${inner}</${close}>`;
}

/** A property asked for: its namespace and name. */
export interface PropName {
  ns: string;
  name: string;
}

/** One `<D:response>`: the properties found (200) and those this resource does not have (404). */
export function propResponse(href: string, found: string[], missing: PropName[]): string {
  const stats: string[] = [];
  if (found.length > 0) {
    stats.push(
      `<D:propstat><D:prop>${found.join('')}</D:prop><D:status>HTTP/1.1 200 OK</D:status></D:propstat>`,
    );
  }
  if (missing.length > 0) {
    const props = missing.map((prop) => element(prop.ns, prop.name)).join('');
    stats.push(
      `<D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 404 Not Found</D:status></D:propstat>`,
    );
  }
  return `<D:response><D:href>${escapeXml(href)}</D:href>${stats.join('')}</D:response>`;
}

/** A `<D:response>` with a bare status (a deleted member in sync-collection, a missing one in multiget). */
export const statusResponse = (href: string, status: string) =>
  `<D:response><D:href>${escapeXml(href)}</D:href><D:status>HTTP/1.1 ${status}</D:status></D:response>`;

/** The 207 body. */
export const multistatus = (responses: string[], extra = '') =>
  `<?xml version="1.0" encoding="utf-8"?>\n<D:multistatus ${NAMESPACES}>${responses.join('')}${extra}</D:multistatus>`;

/** A precondition error body (`<D:error><D:valid-sync-token/></D:error>`). */
export const davError = (ns: string, name: string) =>
  `<?xml version="1.0" encoding="utf-8"?>\n<D:error ${NAMESPACES}>${element(ns, name)}</D:error>`;

/** The properties a PROPFIND or REPORT asks for; null for allprop, propname or no body (all of them). */
export function requestedProps(root: XmlNode | null): PropName[] | null {
  const prop = child(root, DAV, 'prop');
  if (!prop) return null;
  return prop.children.map((node) => ({ ns: node.ns, name: node.name }));
}
