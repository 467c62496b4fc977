# planwarden serve as a container: a static binary on a distroless base,
# run as a non-root user, its state (SQLite) in the /data volume.
#   docker build -t planwarden .
#   docker run -p 8080:8080 -v planwarden-data:/data \
#     -e PLANWARDEN_APP_ID -e PLANWARDEN_PRIVATE_KEY -e PLANWARDEN_WEBHOOK_SECRET planwarden
# `make image-binary` builds the same binary without Docker.
FROM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/planwarden ./cmd/planwarden

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/planwarden /usr/local/bin/planwarden
ENV PLANWARDEN_DATA_DIR=/data \
    PLANWARDEN_ADDR=:8080
VOLUME ["/data"]
EXPOSE 8080
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/planwarden"]
CMD ["serve"]
