/**
 * @module Inline script of the gallery: builds each endpoint's form from its parameter table,
 * keeps the preview, URL and Markdown in sync, and applies the page-wide theme.
 */
export const galleryScript = `
(() => {
  const specs = JSON.parse(document.getElementById('specs').textContent);
  const themeSelect = document.getElementById('theme');
  const initialTheme = new URLSearchParams(location.search).get('theme');
  if (initialTheme) themeSelect.value = initialTheme;

  function field(name, doc, value) {
    const label = document.createElement('label');
    label.textContent = name + (doc.required ? ' (required)' : '');
    label.title = doc.description;
    let input;
    if (doc.kind === 'enum') {
      input = document.createElement('select');
      for (const option of doc.values) input.append(new Option(option, option));
    } else if (doc.kind === 'boolean') {
      input = document.createElement('input');
      input.type = 'checkbox';
    } else {
      input = document.createElement('input');
      input.type = doc.kind === 'number' ? 'number' : 'text';
      if (doc.kind === 'number') { input.min = doc.min; input.max = doc.max; input.step = 'any'; }
      if (doc.default !== undefined) input.placeholder = doc.default;
    }
    input.name = name;
    const initial = value ?? doc.default ?? '';
    if (input.type === 'checkbox') input.checked = initial === 'true' || initial === '1';
    else input.value = initial;
    label.append(input);
    return label;
  }

  function queryOf(form, path) {
    const params = new URLSearchParams();
    for (const [name, doc] of Object.entries(specs[path])) {
      const input = form.elements[name];
      const value = input.type === 'checkbox' ? String(input.checked) : input.value;
      if (value !== '' && value !== doc.default) params.set(name, value);
    }
    const theme = themeSelect.value;
    if (specs[path].theme && theme !== specs[path].theme.default) params.set('theme', theme);
    return params.toString();
  }

  function update(section) {
    const form = section.querySelector('form');
    const path = form.dataset.path;
    const query = queryOf(form, path);
    const relative = query ? path + '?' + query : path;
    const absolute = new URL(relative, location.href).href;
    section.querySelector('.live').src = relative;
    section.querySelector('.url').value = absolute;
    section.querySelector('.markdown').value = '![' + path.slice(1) + '](' + absolute + ')';
  }

  function applyTheme() {
    for (const image of document.querySelectorAll('img.example')) {
      const url = new URL(image.dataset.src, location.href);
      if (specs[url.pathname] && specs[url.pathname].theme) {
        url.searchParams.set('theme', themeSelect.value);
        image.src = url.pathname + url.search;
      }
    }
    for (const section of document.querySelectorAll('section')) update(section);
  }

  for (const section of document.querySelectorAll('section')) {
    const form = section.querySelector('form');
    const example = new URLSearchParams(form.dataset.example);
    for (const [name, doc] of Object.entries(specs[form.dataset.path])) {
      if (name === 'theme') continue;
      form.append(field(name, doc, example.get(name) ?? undefined));
    }
    const theme = document.createElement('input');
    theme.type = 'hidden';
    theme.name = 'theme';
    form.append(theme);
    form.addEventListener('input', () => update(section));
    form.addEventListener('submit', (event) => event.preventDefault());
  }
  themeSelect.addEventListener('change', applyTheme);
  applyTheme();
})();
`;
