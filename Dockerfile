# One image for every Hearth process; compose.yaml picks the `hearth` subcommand per service.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app

COPY pyproject.toml README.md alembic.ini ./
COPY cognition cognition
COPY db db
COPY migrations migrations
COPY service service
COPY workers workers
COPY clients clients
COPY bench bench
RUN pip install . && useradd --create-home hearth
USER hearth
ENV HEARTH_HOME=/home/hearth/.hearth

EXPOSE 8000
ENTRYPOINT ["hearth"]
CMD ["api", "--host", "0.0.0.0"]
