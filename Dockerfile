# Trionfi Discord bot. Build: docker build -t trionfi .
# Run:   docker run -d --name trionfi --env-file .env -v trionfi-data:/data trionfi
#
# Reproducible: a fixed Python patch release on Debian bookworm, and every Python package
# (setuptools and wheel included) installed from requirements.lock at exact versions, each
# checked against its sha256. To pin the base image fully, append its digest
# (`docker buildx imagetools inspect python:3.11.17-slim-bookworm`), e.g. FROM python:…@sha256:….
FROM python:3.11.17-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1

# Unprivileged user; /data is created here, owned by it, so a new named volume inherits that.
RUN useradd --create-home --uid 10001 --user-group trionfi \
    && mkdir /data \
    && chown trionfi:trionfi /data

WORKDIR /app

# Dependencies first: this layer is rebuilt only when requirements.lock changes, not on every
# code change. Wheels only (the slim image has no compiler); hashes required.
COPY requirements.lock ./
RUN pip install --require-hashes --only-binary=:all: --no-deps -r requirements.lock

# Then the code, built with the locked setuptools (no build isolation: nothing else is fetched).
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-deps --no-build-isolation . \
    && rm -rf build ./*.egg-info

ENV DATABASE_PATH=/data/trionfi.sqlite3
USER trionfi
VOLUME /data

# `docker stop` sends SIGTERM, the bot's signal for a clean stop (as PID 1, Python has no default
# action for it: the bot installs its own handler).
STOPSIGNAL SIGTERM
# The bot rewrites /data/trionfi.status.json every few seconds; this fails (exit 1) when it is
# older than 60 s, the gateway is disconnected or the database check failed.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

CMD ["python", "-m", "bot"]
