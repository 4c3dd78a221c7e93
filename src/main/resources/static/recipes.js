// "Take it to your app", beside the page's own app.js: for a finished run, a "Use in my app" button on each result
// row that opens the recipe (GET /recipes/{variant}, the same Java files the tests compile and run) with the row's
// batch size and flush policy filled in and a copy button; a sweep's recommended batch size, marked on the sweep
// chart; and each result's RTT projection as a chart with the measured point on it. app.js calls
// window.takeHome.show(record) after it has drawn a finished run; nothing here changes how runs are made.
'use strict';

window.takeHome = (function () {
  const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  const COLORS = ['#c6302b', '#2e86de', '#10ac84', '#8e44ad', '#e67e22', '#16a085', '#7f8c99', '#d35400'];
  let section = null;
  let projectionChart = null;
  let shownRows = [];

  function element(tag, attributes, ...children) {
    const node = document.createElement(tag);
    Object.entries(attributes || {}).forEach(([name, value]) => node.setAttribute(name, value));
    children.forEach((child) => node.append(child));
    return node;
  }

  // Built once, right after the results panel, so index.html needs only the script tag.
  function panel() {
    if (section) {
      return section;
    }
    section = element('section', { id: 'take-home', class: 'panel', 'aria-labelledby': 'take-home-heading' });
    section.innerHTML = `
      <h2 id="take-home-heading">Take it to your app</h2>
      <p id="recommendation" class="recommendation" hidden></p>
      <div id="recipe" hidden>
        <p><strong id="recipe-title"></strong> · <a id="recipe-link" href="#">JSON</a> ·
          <button type="button" id="recipe-copy" class="small">Copy</button> <span id="recipe-copied" class="muted"></span></p>
        <p id="recipe-properties" class="muted"></p>
        <p id="recipe-cost"></p>
        <p id="recipe-catch"></p>
        <p id="recipe-note" class="muted"></p>
        <pre class="recipe-source"><code id="recipe-source"></code></pre>
      </div>
      <div id="projection" hidden>
        <h3>What it becomes at your round trip</h3>
        <p class="muted" id="projection-model"></p>
        <p><label for="your-rtt">Your RTT (ms)</label>
          <input type="number" id="your-rtt" min="0.001" step="any" value="0.8" inputmode="decimal">
          <span id="your-rtt-answer"></span></p>
        <div class="chart-box"><canvas id="projection-chart" aria-label="projected throughput against round-trip time"
          role="img"></canvas></div>
      </div>`;
    const results = document.getElementById('results');
    results.after(section);
    document.getElementById('recipe-copy').addEventListener('click', copy);
    document.getElementById('your-rtt').addEventListener('input', yourRtt);
    return section;
  }

  function show(record) {
    panel();
    shownRows = record.results || [];
    addButtons(shownRows);
    showRecommendation(record);
    showProjection(shownRows);
    document.getElementById('recipe').hidden = true;
    const recommended = record.recommendation
      && shownRows.find((result) => result.batchSize === record.recommendation.batchSize);
    if (recommended) {
      openRecipe(recommended);
    }
  }

  // One button in the first cell of each row (rows are in the record's order): no extra column for narrow screens.
  // Shown once per row, also when the same record is shown again.
  function addButtons(rows) {
    const trs = document.querySelectorAll('#results-table tbody tr');
    trs.forEach((tr, index) => {
      const result = rows[index];
      if (!result || !tr.firstElementChild || tr.querySelector('.use-in-app')) {
        return;
      }
      // Its words come from CSS (recipes.css) and aria-label, so the cell's text stays the variant's name.
      const button = element('button', { type: 'button', class: 'small use-in-app', 'aria-label': 'Use in my app',
        title: 'the code for ' + result.variant + ' in a Spring Boot app', 'data-variant': result.variant,
        'data-batch-size': String(result.batchSize) });
      button.addEventListener('click', () => openRecipe(result));
      tr.firstElementChild.append(button);
    });
  }

  async function openRecipe(result) {
    const path = '/recipes/' + encodeURIComponent(result.variant)
      + (result.mode === 'loop' ? '' : '?batchSize=' + result.batchSize);
    const response = await fetch(path, { headers: { Accept: 'application/json' } });
    const recipe = await response.json();
    if (!response.ok) {
      document.getElementById('recipe-title').textContent = recipe.detail || 'No recipe';
      document.getElementById('recipe').hidden = false;
      return;
    }
    document.getElementById('recipe-title').textContent = recipe.recipe + '.java for ' + recipe.variant
      + (recipe.batchSize ? ', batches of ' + whole.format(recipe.batchSize) : '')
      + (recipe.flushPolicy ? ', ' + recipe.flushPolicy : '');
    document.getElementById('recipe-link').href = path;
    document.getElementById('recipe-properties').textContent = recipe.properties
      ? 'application.properties: ' + recipe.properties : '';
    document.getElementById('recipe-cost').textContent = 'Cost: ' + recipe.cost;
    document.getElementById('recipe-catch').textContent = 'Catch: ' + recipe.catch;
    document.getElementById('recipe-note').textContent = recipe.note || '';
    document.getElementById('recipe-source').textContent = recipe.source;
    document.getElementById('recipe-copied').textContent = '';
    const box = document.getElementById('recipe');
    box.dataset.variant = recipe.variant;
    box.hidden = false;
  }

  async function copy() {
    const text = document.getElementById('recipe-source').textContent;
    const said = document.getElementById('recipe-copied');
    try {
      await navigator.clipboard.writeText(text);
      said.textContent = 'copied';
    } catch (failure) {
      // Without clipboard permission (plain http on another host): select it for Ctrl+C.
      const range = document.createRange();
      range.selectNodeContents(document.getElementById('recipe-source'));
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
      said.textContent = 'selected: press Ctrl+C';
    }
  }

  // The server's sentence, and a marked point on app.js's sweep chart (Chart.getChart finds it by its canvas).
  function showRecommendation(record) {
    const line = document.getElementById('recommendation');
    const recommendation = record.recommendation;
    line.hidden = !recommendation;
    line.textContent = recommendation ? 'Recommended: ' + recommendation.summary : '';
    const sweepChart = window.Chart && window.Chart.getChart(document.getElementById('chart'));
    if (recommendation && sweepChart && sweepChart.config.type === 'line') {
      sweepChart.data.datasets.push({
        label: 'recommended: batches of ' + whole.format(recommendation.batchSize),
        data: [{ x: recommendation.batchSize, y: recommendation.opsPerSecond }],
        borderColor: '#2b7a3d',
        backgroundColor: '#2b7a3d',
        pointRadius: 9,
        pointStyle: 'star',
        showLine: false,
      });
      sweepChart.update();
    }
  }

  function label(result) {
    return result.variant + (result.mode === 'loop' ? '' : ' ×' + whole.format(result.batchSize));
  }

  // Log-log: each result's predicted line and, as a larger point, where it was measured.
  function showProjection(rows) {
    const projected = rows.filter((result) => result.projection);
    const box = document.getElementById('projection');
    if (projectionChart) {
      projectionChart.destroy();
      projectionChart = null;
    }
    box.hidden = projected.length === 0;
    if (!projected.length || !window.Chart) {
      return;
    }
    document.getElementById('projection-model').textContent = 'Model: ' + projected[0].projection.model + '.';
    const datasets = [];
    projected.forEach((result, index) => {
      const color = COLORS[index % COLORS.length];
      const p = result.projection;
      datasets.push({ label: label(result) + ' (predicted)', data: p.points.map((point) => ({ x: point.rttMillis,
        y: point.opsPerSecond })), borderColor: color, backgroundColor: color, pointRadius: 2, tension: 0 });
      datasets.push({ label: label(result) + ' (measured)', data: [{ x: p.measuredRttMillis,
        y: p.measuredOpsPerSecond }], borderColor: color, backgroundColor: color, pointRadius: 7,
        pointStyle: 'rectRot', showLine: false });
    });
    const canvas = document.getElementById('projection-chart');
    projectionChart = new window.Chart(canvas, {
      type: 'line',
      data: { datasets },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          title: { display: true, text: 'Projected throughput against round-trip time (log-log)' },
          legend: { position: 'bottom' },
        },
        scales: {
          x: { type: 'logarithmic', title: { display: true, text: 'round-trip time, ms' } },
          y: { type: 'logarithmic', title: { display: true, text: 'ops/s' } },
        },
      },
    });
    canvas.dataset.chart = 'projection';
    yourRtt();
  }

  // The model's own formula, with the coefficients the answer gave.
  function yourRtt() {
    const rtt = Number(document.getElementById('your-rtt').value);
    const answer = document.getElementById('your-rtt-answer');
    const projected = shownRows.filter((result) => result.projection);
    if (!(rtt > 0) || !projected.length) {
      answer.textContent = '';
      return;
    }
    answer.textContent = projected.map((result) => label(result) + ': ' + whole.format(1000
      / (result.projection.roundTripsPerItem * rtt + result.projection.workMillisPerItem)) + ' ops/s').join(' · ');
  }

  return { show };
})();
