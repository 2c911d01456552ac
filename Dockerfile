# The mongoload image for deploy/kubernetes: a static binary on a minimal base.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/mongoload/mongoload/internal/cli.Version=${VERSION}" -o /out/mongoload ./cmd/mongoload

FROM busybox:1.37
COPY --from=build /out/mongoload /usr/local/bin/mongoload
USER 65532:65532
ENTRYPOINT ["mongoload"]
