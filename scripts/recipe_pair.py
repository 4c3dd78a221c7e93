"""The lab adds nothing to what it measures: the take-home pipelined recipe (src/main/resources/recipes/
PipelinedRecipe.java, docs/recipes.md) run bare, in a JVM of its own (scripts/RecipeBench.java: Boot's
auto-configuration and the recipe, no web server, nothing of the lab), against the lab's `/pipeset` of the same
count, batch size and flush policy on the same Redis, by the one method (paired.py: A B C, C B A, ...). The recipe
runs twice: with the client settings the lab runs with (the pair that says what the lab itself costs) and on Boot's
defaults (what those settings give).

Every side runs the app jar's own Spring Data Redis and Lettuce: the recipe is compiled against the libraries inside
the jar. Used by scripts/benchmark.py (--only recipe).
"""
import os
import re
import subprocess
import zipfile
from pathlib import Path

import paired

ROOT = Path(__file__).resolve().parent.parent
RECIPE = ROOT / "src" / "main" / "resources" / "recipes" / "PipelinedRecipe.java"
HARNESS = ROOT / "scripts" / "RecipeBench.java"


def recipe_settings():
    """The recipe's batch size and flush policy, as its source sets them: the lab is asked for the same."""
    source = RECIPE.read_text()
    batch = int(re.search(r"int BATCH_SIZE = (\d+);", source).group(1))
    buffered = int(re.search(r"PipeliningFlushPolicy\.buffered\((\d+)\)", source).group(1))
    return batch, f"buffered-{buffered}"


class Recipe:
    """The recipe's JVM, kept running like the app's so both are warm: each run is one line on its stdin."""

    def __init__(self, jar, redis, workdir, name, settings=()):
        libs = workdir / "recipe-libs"
        classes = workdir / "recipe-classes"
        if not classes.exists():
            with zipfile.ZipFile(jar) as archive:
                for entry in archive.namelist():
                    if entry.startswith("BOOT-INF/lib/") and entry.endswith(".jar"):
                        archive.extract(entry, libs)
            subprocess.run(["javac", "-d", str(classes), "-cp", str(libs / "BOOT-INF" / "lib" / "*"), str(RECIPE),
                            str(HARNESS)], check=True)
        classpath = f"{classes}{os.pathsep}{libs / 'BOOT-INF' / 'lib' / '*'}"
        self.log = workdir / f"recipe-{name}.log"
        # Boot pools Lettuce connections where commons-pool2 is on the classpath, as the recipe asks.
        self.proc = subprocess.Popen(
            ["java", "-cp", classpath, "com.example.redis.RecipeBench", "--spring.main.banner-mode=off",
             "--logging.level.root=warn", "--spring.data.redis.host=127.0.0.1", f"--spring.data.redis.port={redis.port}",
             "--spring.data.redis.lettuce.pool.enabled=true", *settings],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log.open("w"), text=True, bufsize=1)
        self.read("ready")

    def read(self, marker):
        for line in self.proc.stdout:
            if line.startswith(marker):
                return line[len(marker):].strip()
        raise SystemExit(f"the recipe's JVM ended (exit {self.proc.wait()}); see {self.log}")

    def run(self, count):
        self.proc.stdin.write(f"{count}\n")
        self.proc.stdin.flush()
        return float(self.read("ops "))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()


# The client settings the lab runs with beside Boot's (redis/RedisConfiguration, application.yml; GET /'s
# settings list them): the recipe gets them too on side A, so A against B is the lab's own cost alone.
LAB_CLIENT = ["--spring.profiles.active=lab-client", "--spring.data.redis.timeout=5s",
              "--spring.data.redis.connect-timeout=2s", "--spring.autoconfigure.exclude=org.springframework.boot.data"
              ".redis.autoconfigure.observation.LettuceObservationAutoConfiguration"]


def recipe_section(args, jar, redis, workdir, app, log):
    """The recipe with the lab's client settings (A), the lab (B) and the recipe on Boot's defaults (C):
    `args.recipe_count` SETs each, args.tries tries."""
    count = args.recipe_count
    batch, policy = recipe_settings()
    path = f"/pipeset/{count}?batchSize={batch}&flushPolicy={policy}&sample=0"
    log(f"recipe: PipelinedRecipe bare against {path}")
    recipes = []
    try:
        recipes.append(Recipe(jar, redis, workdir, "lab-client", LAB_CLIENT))
        recipes.append(Recipe(jar, redis, workdir, "boot-defaults"))
        sides = [paired.Side("recipe, lab's client", lambda: recipes[0].run(count), recipes[0].proc.pid),
                 app.side("lab", path),
                 paired.Side("recipe, Boot's defaults", lambda: recipes[1].run(count), recipes[1].proc.pid)]
        result = paired.paired_tries(sides, args.tries, args.warm_requests, redis.flush, log=log)
    finally:
        for recipe in recipes:
            recipe.stop()
        redis.flush()
    return ([f"## The lab adds nothing: `PipelinedRecipe` bare against `{path}`", "",
             f"A and C are the take-home recipe (`executePipelined` per batch of {batch:,}, flush policy {policy}), "
             "each in a JVM of its own with Spring Boot's auto-configuration and the recipe only "
             "(`scripts/RecipeBench.java`, compiled against the app jar's libraries), timing the lab's keys and "
             "values made and sent with `PipelinedStore.setAll`; A with the client settings the lab runs with "
             "(no per-command timeout timer, a plain command queue, no Lettuce observation, 5 s and 2 s timeouts), "
             f"C on Boot's defaults. B is the lab's `{path}` (its timed pass). lab / A: 1 means the lab adds nothing "
             "to what it measures; lab / C is what those client settings give a default Boot app. "
             + paired.method_text(args.tries, args.warm_requests), ""]
            + paired.tables(result, [("lab", "recipe, lab's client"), ("lab", "recipe, Boot's defaults")]))
