// The card gallery's filters (blades gallery): each card's data-* attributes
// against the filter in the URL's hash (index.html#set=core&element=fire), so
// a filtered view can be linked to. Nothing is fetched: it works from file://.
(function () {
  'use strict';
  var KEYS = ['set', 'kind', 'element', 'type', 'rarity', 'star'];
  // The attribute each filter reads; elements and types hold several words.
  var ATTRIBUTE = { set: 'set', kind: 'kind', element: 'elements', type: 'types', rarity: 'rarity', star: 'star' };
  var SEVERAL = { element: true, type: true };
  var form = document.getElementById('filters');
  var cards = Array.prototype.slice.call(document.querySelectorAll('article.card'));

  function wanted() {
    var filter = {};
    location.hash.replace(/^#/, '').split('&').forEach(function (part) {
      if (!part) return;
      var at = part.indexOf('=');
      var key = decodeURIComponent(at < 0 ? part : part.slice(0, at));
      var value = decodeURIComponent(at < 0 ? '' : part.slice(at + 1));
      if (KEYS.indexOf(key) >= 0 && value) filter[key] = value;
    });
    return filter;
  }

  function matches(card, filter) {
    return KEYS.every(function (key) {
      if (!filter[key]) return true;
      var value = card.getAttribute('data-' + ATTRIBUTE[key]) || '';
      return SEVERAL[key] ? value.split(' ').indexOf(filter[key]) >= 0 : value === filter[key];
    });
  }

  function apply() {
    var filter = wanted();
    KEYS.forEach(function (key) { form.elements[key].value = filter[key] || ''; });
    var shown = 0;
    cards.forEach(function (card) {
      var show = matches(card, filter);
      card.hidden = !show;
      if (show) shown += 1;
    });
    document.getElementById('shown').textContent = String(shown);
  }

  form.addEventListener('change', function () {
    var parts = [];
    KEYS.forEach(function (key) {
      var value = form.elements[key].value;
      if (value) parts.push(key + '=' + encodeURIComponent(value));
    });
    location.hash = parts.join('&');
  });
  window.addEventListener('hashchange', apply);
  apply();
})();
