// "Take it to your app", beside the page's own app.js: for a finished run, a "Use in my app" button on each result
// row that opens the recipe (GET /recipes/{variant}, the same Java files the tests compile and run) with the row's
// batch size and flush policy filled in and a copy button; a sweep's recommended batch size, marked on the sweep
// chart; and each result's RTT projection as a chart with the measured point on it. app.js calls
// window.takeHome.show(record) after it has drawn a finished run; nothing here changes how runs are made.
'use strict';

window.takeHome = (function () {
  const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  // A legend of about eight entries stays readable on a phone: the loop and the fastest others.
  const MOST_LINES = 8;
  let section = null;
  let projectionChart = null;
  let shownRows = [];
  let shownRecord = null;

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
      <p id="recommendation-at-rtt" class="recommendation" hidden></p>
      <div id="recipe" hidden>
        <p><strong id="recipe-title" tabindex="-1"></strong> · <a id="recipe-link" href="#">JSON</a> ·
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
    document.getElementById('your-rtt').addEventListener('input', (event) => {
      event.target.dataset.typed = 'true';
      yourRtt();
    });
    return section;
  }

  function show(record) {
    panel();
    shownRecord = record;
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
      const button = element('button', { type: 'button', class: 'small use-in-app',
        'aria-label': 'Use ' + result.variant + (result.mode === 'loop' ? '' : ', batches of '
          + whole.format(result.batchSize)) + ', in my app',
        title: 'the code for ' + result.variant + ' in a Spring Boot app', 'data-variant': result.variant,
        'data-batch-size': String(result.batchSize) });
      button.addEventListener('click', () => openRecipe(result, true));
      tr.firstElementChild.append(button);
    });
  }

  // asked: from its button, so the recipe comes into view with the focus on its title, and is said; opened by
  // itself (a sweep's recommended size), it waits where it is.
  async function openRecipe(result, asked) {
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
    if (asked) {
      box.scrollIntoView({ block: 'start' });
      const title = document.getElementById('recipe-title');
      title.focus({ preventScroll: true });
      document.getElementById('announcer').textContent = 'Recipe opened: ' + title.textContent + '.';
    }
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

  // Log-log: one line per result, in its colour from the other charts, through its predicted points and, as a
  // larger diamond on the same line, the measured one: measured and predicted told apart by point style, so the
  // legend names each result once.
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
    document.getElementById('projection-model').textContent = 'Model: ' + projected[0].projection.model
      + '. Lines: predicted; diamonds: measured.';
    const loops = projected.filter((result) => result.mode === 'loop');
    const others = projected.filter((result) => result.mode !== 'loop')
      .sort((a, b) => b.opsPerSecond - a.opsPerSecond);
    const drawn = loops.concat(others).slice(0, MOST_LINES);
    const colorOf = (result) => (window.labColors ? window.labColors.of(result) : '#0072B2');
    const datasets = drawn.map((result) => {
      const p = result.projection;
      const points = p.points.map((point) => ({ x: point.rttMillis, y: point.opsPerSecond, measured: false }))
        .concat([{ x: p.measuredRttMillis, y: p.measuredOpsPerSecond, measured: true }])
        .sort((a, b) => a.x - b.x);
      const color = colorOf(result);
      return {
        label: label(result),
        data: points,
        borderColor: color,
        backgroundColor: color,
        pointStyle: points.map((point) => (point.measured ? 'rectRot' : 'circle')),
        pointRadius: points.map((point) => (point.measured ? 7 : 2)),
        tension: 0,
      };
    });
    const values = datasets.flatMap((set) => set.data.map((point) => point.y)).filter((value) => value > 0);
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
          subtitle: { display: projected.length > drawn.length, text: 'the loop and the ' + (drawn.length - loops.length)
            + ' fastest of ' + projected.length + ' results' },
          legend: { position: 'bottom', labels: { usePointStyle: true, pointStyle: 'line' } },
          tooltip: { callbacks: { label: (item) => item.dataset.label + (item.raw.measured ? ' (measured)'
            : ' (predicted)') + ': ' + whole.format(item.raw.y) + ' ops/s at ' + item.raw.x + ' ms' } },
        },
        scales: {
          x: logAxis('round-trip time, ms', Math.min(...datasets.flatMap((set) => set.data.map((point) => point.x)))),
          y: logAxis('ops/s', Math.min(...values)),
        },
      },
    });
    canvas.dataset.chart = 'projection';
    // A run through the relay answers for that round trip: "Your RTT" starts there, unless one was typed.
    const field = document.getElementById('your-rtt');
    const through = loops[0] || projected[0];
    if (shownRecord && shownRecord.request.rtt != null && !field.dataset.typed) {
      field.value = String(Number(through.projection.measuredRttMillis.toPrecision(3)));
    }
    yourRtt();
  }

  // A log axis labelled at 1, 2 and 5 times powers of ten only, from below its smallest value: every other
  // minor tick unlabelled, so no two labels run into each other ("8.009.0010.00").
  function logAxis(title, smallest) {
    return {
      type: 'logarithmic',
      min: 10 ** Math.floor(Math.log10(smallest / 1.5)),
      title: { display: true, text: title },
      ticks: {
        maxRotation: 0,
        callback: (value) => {
          const mantissa = value / 10 ** Math.floor(Math.log10(value) + 1e-9);
          return [1, 2, 5].some((shown) => Math.abs(mantissa - shown) < 1e-6)
            ? new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 3 }).format(value) : '';
        },
      },
    };
  }

  // The model's own formula, with the coefficients the answer gave; for a sweep, the batch-size advice at the
  // typed round trip by the server's rule (recommendation.byRtt): the smallest batch size within 90% of the best.
  function yourRtt() {
    const rtt = Number(document.getElementById('your-rtt').value);
    const answer = document.getElementById('your-rtt-answer');
    const advice = document.getElementById('recommendation-at-rtt');
    const projected = shownRows.filter((result) => result.projection);
    const at = (result) => 1000 / (result.projection.roundTripsPerItem * rtt + result.projection.workMillisPerItem);
    if (!(rtt > 0) || !projected.length) {
      answer.textContent = '';
      advice.hidden = true;
      return;
    }
    answer.textContent = projected.map((result) => label(result) + ': ' + whole.format(at(result)) + ' ops/s')
      .join(' · ');
    const sweep = shownRecord && shownRecord.recommendation && projected.length === shownRows.length;
    advice.hidden = !sweep;
    if (sweep) {
      const best = Math.max(...projected.map(at));
      const chosen = projected.filter((result) => at(result) >= 0.9 * best)
        .sort((a, b) => a.batchSize - b.batchSize)[0];
      advice.dataset.batchSize = String(chosen.batchSize);
      advice.textContent = 'At your ' + rtt + ' ms round trip: use batches of ' + whole.format(chosen.batchSize)
        + ', ' + whole.format(at(chosen)) + ' ops/s projected, ' + Math.round(at(chosen) / best * 100)
        + '% of the best projected there (' + whole.format(best) + ' ops/s); measured at '
        + ((shownRecord.recommendation.byRtt || [])[0] || { rttMillis: '?' }).rttMillis + ' ms, the advice was batches of '
        + whole.format(shownRecord.recommendation.batchSize) + '.';
    }
  }

  return { show };
})();
