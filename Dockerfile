# Trionfi Discord bot. Build: docker build -t trionfi .
# Run:   docker run -d --name trionfi --env-file .env -v trionfi-data:/data trionfi
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Unprivileged user; /data is created here, owned by it, so a new named volume inherits that.
RUN useradd --create-home --uid 10001 --user-group trionfi \
    && mkdir /data \
    && chown trionfi:trionfi /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir .

ENV DATABASE_PATH=/data/trionfi.sqlite3
USER trionfi
VOLUME /data

CMD ["python", "-m", "bot"]
