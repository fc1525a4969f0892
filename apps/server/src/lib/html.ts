/** Escapes text for HTML (element content and quoted attributes): the one escape every page and email uses. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
