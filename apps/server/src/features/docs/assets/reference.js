// Renders /api/docs/openapi.json as a list of calls by tag. Served as a file (no inline script), so the
// Content-Security-Policy's script-src 'self' allows it. Everything is written with textContent.
(() => {
  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props)) {
      if (key === 'class') node.className = value;
      else if (key === 'text') node.textContent = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  };
  const methods = ['get', 'post', 'put', 'patch', 'delete'];
  const json = (value) => el('pre', { text: JSON.stringify(value, null, 2) });

  function resolve(doc, schema) {
    if (schema && typeof schema.$ref === 'string') {
      const name = schema.$ref.split('/').pop();
      return doc.components?.schemas?.[name] ?? schema;
    }
    return schema;
  }

  function operationView(doc, path, method, op) {
    const body = el('div', { class: 'body' });
    if (op.description) body.append(el('p', { text: op.description }));
    const params = op.parameters ?? [];
    if (params.length > 0) {
      const rows = params.map((p) =>
        el(
          'tr',
          {},
          el('td', { class: 'path', text: p.name }),
          el('td', { text: p.in }),
          el('td', { text: p.required ? 'required' : 'optional' }),
          el('td', { text: p.schema?.type ?? '' }),
        ),
      );
      body.append(el('h3', { text: 'Parameters' }), el('table', {}, ...rows));
    }
    const request = op.requestBody?.content;
    if (request) {
      for (const [type, media] of Object.entries(request)) {
        body.append(el('h3', { text: `Request body (${type})` }), json(resolve(doc, media.schema)));
      }
    }
    for (const [status, answer] of Object.entries(op.responses ?? {})) {
      const media = answer.content && Object.values(answer.content)[0];
      body.append(el('h3', { text: `${status} ${answer.description ?? ''}`.trim() }));
      if (media?.schema) body.append(json(resolve(doc, media.schema)));
    }
    const secured = (op.security ?? doc.security ?? []).length > 0;
    return el(
      'details',
      { 'data-search': `${method} ${path} ${op.summary ?? ''} ${(op.tags ?? []).join(' ')}`.toLowerCase() },
      el(
        'summary',
        {},
        el('span', { class: `method ${method}`, text: method }),
        el('span', { class: 'path', text: path }),
        op.summary ? el('span', { class: 'summary', text: op.summary }) : null,
        secured ? el('span', { class: 'lock', text: 'Bearer token' }) : null,
      ),
      body,
    );
  }

  function render(doc) {
    document.getElementById('title').textContent =
      `${doc.info?.title ?? 'API'} ${doc.info?.version ?? ''}`.trim();
    document.getElementById('description').textContent = doc.info?.description ?? '';
    const byTag = new Map();
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of methods) {
        const op = item[method];
        if (!op) continue;
        const tag = op.tags?.[0] ?? 'other';
        if (!byTag.has(tag)) byTag.set(tag, []);
        byTag.get(tag).push(operationView(doc, path, method, op));
      }
    }
    const main = document.getElementById('operations');
    const nav = document.getElementById('tags');
    for (const [tag, views] of [...byTag].sort(([a], [b]) => a.localeCompare(b))) {
      const id = `tag-${tag.replace(/\W+/g, '-')}`;
      nav.append(el('a', { href: `#${id}`, text: `${tag} (${views.length})` }));
      main.append(el('section', { 'aria-labelledby': id }, el('h2', { id, text: tag }), ...views));
    }
    document.getElementById('filter').addEventListener('input', (event) => {
      const term = event.target.value.trim().toLowerCase();
      for (const details of main.querySelectorAll('details')) {
        details.hidden = term !== '' && !details.dataset.search.includes(term);
      }
    });
  }

  fetch('/api/docs/openapi.json')
    .then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    })
    .then(render)
    .catch((error) => {
      document.getElementById('description').textContent =
        `The API reference could not load: ${error.message}`;
    });
})();
