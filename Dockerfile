# planwarden serve as a container: a static binary on a distroless base,
# run as a non-root user, its state (SQLite) in the /data volume.
#   docker build -t planwarden .
#   docker run -p 8080:8080 -v planwarden-data:/data \
#     -e PLANWARDEN_APP_ID -e PLANWARDEN_PRIVATE_KEY -e PLANWARDEN_WEBHOOK_SECRET planwarden
# (or, after `planwarden setup --data-dir` into the volume's directory, with
# no variables: serve reads the App's id, key and secret from /data).
# A bind mount (-v ./dir:/data) keeps the host directory's owner: make it
# writable by uid 65532.
# `make image-binary` builds the same binary without Docker.
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/planwarden ./cmd/planwarden
# The state directory, empty: copied below owned by the image's user, so a
# fresh named volume on /data starts writable by serve (Docker copies the
# image's directory, owner included, into a new volume).
RUN mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/planwarden /usr/local/bin/planwarden
COPY --from=build --chown=nonroot:nonroot /out/data /data
ENV PLANWARDEN_DATA_DIR=/data \
    PLANWARDEN_ADDR=:8080
VOLUME ["/data"]
EXPOSE 8080
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/planwarden"]
CMD ["serve"]
